// isfinite_fp16, expert version: x - x is 0 exactly for finite x and NaN otherwise;
// CompareScalar(EQ 0), Select, Cast to bytes.
#include "kernel_operator.h"
#include "isfinite_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelIsfinite {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const IsfiniteTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ half*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(half));
        outGm.SetGlobalBuffer((__gm__ uint8_t*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
        pipe.InitBuffer(dBuf, tile_ * sizeof(half));
        pipe.InitBuffer(maskBuf, tile_ / 8 * sizeof(uint8_t));
        pipe.InitBuffer(hBuf, tile_ * sizeof(half));
        pipe.InitBuffer(onesBuf, tile_ * sizeof(half));
        Duplicate(onesBuf.Get<half>(), static_cast<half>(1.0f), tile_);
        // Compare works on whole 256-byte repeats: its tail lanes read d beyond n, so start d defined.
        Duplicate(dBuf.Get<half>(), static_cast<half>(0.0f), tile_);
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
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
        DataCopyPad(xLocal, xGm[offset], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        LocalTensor<uint8_t> outLocal = outQueue.AllocTensor<uint8_t>();
        LocalTensor<half> d = dBuf.Get<half>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        LocalTensor<half> h = hBuf.Get<half>();
        LocalTensor<half> ones = onesBuf.Get<half>();
        const uint32_t cnt = (n + 127) / 128 * 128;   // CompareScalar: whole 256-byte repeats (128 halves)
        Sub(d, xLocal, xLocal, n);                    // 0 for finite x; NaN for +-inf and NaN
        CompareScalar(mask, d, static_cast<half>(0.0f), CMPMODE::EQ, cnt);
        Select(h, mask, ones, static_cast<half>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        Cast(outLocal, h, RoundMode::CAST_NONE, n);   // 1.0 / 0.0 -> byte 1 / 0
        outQueue.EnQue<uint8_t>(outLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<uint8_t> outLocal = outQueue.DeQue<uint8_t>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(uint8_t)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> dBuf, maskBuf, hBuf, onesBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<uint8_t> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void isfinite_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(IsfiniteTilingData, tilingData, tiling);
    KernelIsfinite op;
    op.Init(x, y, tilingData);
    op.Process();
}
