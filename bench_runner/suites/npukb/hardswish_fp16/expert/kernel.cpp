// hardswish_fp16, expert version: double-buffered tiles, upcast to float32, clamp, multiply, one
// rounding to half.
#include "kernel_operator.h"
#include "hardswish_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelHardswish {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const HardswishTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ half*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(half));
        outGm.SetGlobalBuffer((__gm__ half*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(half));
        pipe.InitBuffer(f0Buf, tile_ * sizeof(float));
        pipe.InitBuffer(f1Buf, tile_ * sizeof(float));
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
        LocalTensor<half> outLocal = outQueue.AllocTensor<half>();
        LocalTensor<float> f0 = f0Buf.Get<float>();
        LocalTensor<float> f1 = f1Buf.Get<float>();
        Cast(f0, xLocal, RoundMode::CAST_NONE, n);
        Adds(f1, f0, 3.0f, n);
        Maxs(f1, f1, 0.0f, n);
        Mins(f1, f1, 6.0f, n);
        Mul(f1, f1, f0, n);
        Muls(f1, f1, 1.0f / 6.0f, n);
        Cast(outLocal, f1, RoundMode::CAST_RINT, n);
        outQueue.EnQue<half>(outLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<half> outLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> f0Buf, f1Buf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void hardswish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(HardswishTilingData, tilingData, tiling);
    KernelHardswish op;
    op.Init(x, y, tilingData);
    op.Process();
}
