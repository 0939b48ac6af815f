// mish_fp32, expert version: one Exp per element, tanh(softplus) as n / (n + 2) with n = w (w +
// 2); double-buffered tiles.
#include "kernel_operator.h"
#include "mish_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelMish {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MishTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        outGm.SetGlobalBuffer((__gm__ float*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(wBuf, tile_ * sizeof(float));
        pipe.InitBuffer(mBuf, tile_ * sizeof(float));
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
        LocalTensor<float> w = wBuf.Get<float>();
        LocalTensor<float> m = mBuf.Get<float>();
        // tanh(log(1 + w)) = ((1 + w)^2 - 1) / ((1 + w)^2 + 1) = w (w + 2) / (w (w + 2) + 2), w = exp(x).
        // x is clamped at 20 before exp (w^2 must not overflow); the factor is 1.0f there anyway.
        Mins(w, xLocal, 20.0f, n);
        Exp(w, w, n);
        Adds(m, w, 2.0f, n);
        Mul(m, m, w, n);
        Adds(w, m, 2.0f, n);
        Div(m, m, w, n);
        Mul(outLocal, m, xLocal, n);
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
    TBuf<QuePosition::VECCALC> wBuf, mBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void mish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MishTilingData, tilingData, tiling);
    KernelMish op;
    op.Init(x, y, tilingData);
    op.Process();
}
