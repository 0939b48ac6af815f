// greater_fp32_to_bool, expert version: Compare into a bit mask, Select 1/0 into half, Cast half
// -> uint8; double-buffered tiles.
#include "kernel_operator.h"
#include "greater_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelGreater {
  public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const GreaterTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        aGm.SetGlobalBuffer((__gm__ float*)a + first, length_);
        pipe.InitBuffer(aQueue, BUFFER_NUM, tile_ * sizeof(float));
        bGm.SetGlobalBuffer((__gm__ float*)b + first, length_);
        pipe.InitBuffer(bQueue, BUFFER_NUM, tile_ * sizeof(float));
        outGm.SetGlobalBuffer((__gm__ uint8_t*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
        pipe.InitBuffer(maskBuf, tile_ / 8 * sizeof(uint8_t));
        pipe.InitBuffer(hBuf, tile_ * sizeof(half));
        pipe.InitBuffer(onesBuf, tile_ * sizeof(half));
        Duplicate(onesBuf.Get<half>(), static_cast<half>(1.0f), tile_);
    }

    __aicore__ inline void Process() {
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            CopyIn(offset, n);
            Compute(n);
            CopyOut(offset, n);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        LocalTensor<float> aLocal = aQueue.AllocTensor<float>();
        DataCopyPad(aLocal, aGm[offset], params, pad);
        aQueue.EnQue(aLocal);
        LocalTensor<float> bLocal = bQueue.AllocTensor<float>();
        DataCopyPad(bLocal, bGm[offset], params, pad);
        bQueue.EnQue(bLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> aLocal = aQueue.DeQue<float>();
        LocalTensor<float> bLocal = bQueue.DeQue<float>();
        LocalTensor<uint8_t> outLocal = outQueue.AllocTensor<uint8_t>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        LocalTensor<half> h = hBuf.Get<half>();
        LocalTensor<half> ones = onesBuf.Get<half>();
        const uint32_t cnt = (n + 63) / 64 * 64;   // Compare: whole 256-byte repeats (64 floats)
        const uint32_t padded = (n + 7) / 8 * 8;   // DataCopyPad filled whole 32-byte blocks
        if (cnt > padded) {                        // define the lanes Compare reads past the data
            Duplicate(aLocal[padded], 0.0f, cnt - padded);
            Duplicate(bLocal[padded], 0.0f, cnt - padded);
        }
        Compare(mask, aLocal, bLocal, CMPMODE::GT, cnt);
        Select(h, mask, ones, static_cast<half>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        Cast(outLocal, h, RoundMode::CAST_NONE, n);   // 1.0 / 0.0 -> byte 1 / 0
        outQueue.EnQue<uint8_t>(outLocal);
        aQueue.FreeTensor(aLocal);
        bQueue.FreeTensor(bLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<uint8_t> outLocal = outQueue.DeQue<uint8_t>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(uint8_t)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> bQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> maskBuf, hBuf, onesBuf;
    GlobalTensor<float> aGm, bGm;
    GlobalTensor<uint8_t> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void greater_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GreaterTilingData, tilingData, tiling);
    KernelGreater op;
    op.Init(a, b, y, tilingData);
    op.Process();
}
