// gelu_tanh_fp16, expert version: float32 inside, tanh folded into a sigmoid: x / (1 +
// exp(-2u)); double-buffered tiles.
#include "kernel_operator.h"
#include "gelu_tanh_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float kSqrt2OverPi = 0.79788456080286536f;  // sqrt(2 / pi)

class KernelGeluTanh {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GeluTanhTilingData& t) {
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
        // 0.5 * (1 + tanh(u)) = 1 / (1 + exp(-2u)), so y = x / (1 + exp(-2u)).
        Cast(f0, xLocal, RoundMode::CAST_NONE, n);
        Mul(f1, f0, f0, n);
        Muls(f1, f1, 0.044715f, n);
        Adds(f1, f1, 1.0f, n);
        Mul(f1, f1, f0, n);
        Muls(f1, f1, -2.0f * kSqrt2OverPi, n);
        Exp(f1, f1, n);
        Adds(f1, f1, 1.0f, n);
        Div(f1, f0, f1, n);
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

extern "C" __global__ __aicore__ void gelu_tanh_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GeluTanhTilingData, tilingData, tiling);
    KernelGeluTanh op;
    op.Init(x, y, tilingData);
    op.Process();
}
