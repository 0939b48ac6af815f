// gelu_erf_fp32, expert version: branch-free erf form via Abramowitz & Stegun 7.1.26 on |x|;
// double-buffered tiles.
#include "kernel_operator.h"
#include "gelu_erf_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float kInvSqrt2 = 0.70710678118654752f;
constexpr float kP = 0.3275911f;   // Abramowitz & Stegun 7.1.26
constexpr float kA1 = 0.254829592f;
constexpr float kA2 = -0.284496736f;
constexpr float kA3 = 1.421413741f;
constexpr float kA4 = -1.453152027f;
constexpr float kA5 = 1.061405429f;

class KernelGeluErf {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GeluErfTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        outGm.SetGlobalBuffer((__gm__ float*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(aBuf, tile_ * sizeof(float));
        pipe.InitBuffer(bBuf, tile_ * sizeof(float));
        pipe.InitBuffer(cBuf, tile_ * sizeof(float));
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
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        DataCopyPad(xLocal, xGm[offset], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> a = aBuf.Get<float>();
        LocalTensor<float> b = bBuf.Get<float>();
        LocalTensor<float> c = cBuf.Get<float>();
        // Phi(x) = 1 - q(|x|) for x >= 0 and q(|x|) for x < 0 with q(z) = erfc(z / sqrt 2) / 2, so
        // gelu(x) = relu(x) - |x| * q(|x|). erfc(u) = t * P(t) * exp(-u^2), t = 1 / (1 + p u)
        // (Abramowitz & Stegun 7.1.26, |error| <= 1.5e-7).
        Abs(a, xLocal, n);
        Muls(b, a, kP * kInvSqrt2, n);
        Adds(b, b, 1.0f, n);
        Reciprocal(b, b, n);
        Muls(c, b, kA5, n);
        Adds(c, c, kA4, n);
        Mul(c, c, b, n);
        Adds(c, c, kA3, n);
        Mul(c, c, b, n);
        Adds(c, c, kA2, n);
        Mul(c, c, b, n);
        Adds(c, c, kA1, n);
        Mul(c, c, b, n);
        Mul(b, a, a, n);
        Muls(b, b, -0.5f, n);
        Exp(b, b, n);
        Mul(c, c, b, n);
        Muls(c, c, 0.5f, n);
        Mul(c, c, a, n);
        Relu(outLocal, xLocal, n);
        Sub(outLocal, outLocal, c, n);
        outQueue.EnQue<float>(outLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> outLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> aBuf, bBuf, cBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void gelu_erf_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GeluErfTilingData, tilingData, tiling);
    KernelGeluErf op;
    op.Init(x, y, tilingData);
    op.Process();
}
