// adamw_step_fp32, expert version: double-buffered tiles over the four tensors; the update is a
// chain of Muls / Axpy / Mul / Sqrt / Adds / Div on the vector unit, written back in place.
#include "kernel_operator.h"
#include "adamw_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAdamW {
  public:
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR m, GM_ADDR v, const AdamWTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        decay_ = t.decay;
        beta1_ = t.beta1;
        omb1_ = t.oneMinusBeta1;
        beta2_ = t.beta2;
        omb2_ = t.oneMinusBeta2;
        eps_ = t.eps;
        stepSize_ = t.stepSize;
        invSqrtBc2_ = t.invSqrtBc2;
        pGm.SetGlobalBuffer((__gm__ float*)param + start, length_);
        gGm.SetGlobalBuffer((__gm__ float*)grad + start, length_);
        mGm.SetGlobalBuffer((__gm__ float*)m + start, length_);
        vGm.SetGlobalBuffer((__gm__ float*)v + start, length_);
        const uint32_t bytes = tile_ * sizeof(float);
        pipe.InitBuffer(pIn, BUFFER_NUM, bytes);
        pipe.InitBuffer(gIn, BUFFER_NUM, bytes);
        pipe.InitBuffer(mIn, BUFFER_NUM, bytes);
        pipe.InitBuffer(vIn, BUFFER_NUM, bytes);
        pipe.InitBuffer(pOut, BUFFER_NUM, bytes);
        pipe.InitBuffer(mOut, BUFFER_NUM, bytes);
        pipe.InitBuffer(vOut, BUFFER_NUM, bytes);
        pipe.InitBuffer(tmpBuf, bytes);
    }

    __aicore__ inline void Process() {
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            Load(pIn, pGm, offset, n);
            Load(gIn, gGm, offset, n);
            Load(mIn, mGm, offset, n);
            Load(vIn, vGm, offset, n);
            Compute(n);
            Store(pOut, pGm, offset, n);
            Store(mOut, mGm, offset, n);
            Store(vOut, vGm, offset, n);
        }
    }

  private:
    __aicore__ inline void Load(TQue<QuePosition::VECIN, BUFFER_NUM>& q, const GlobalTensor<float>& g, uint32_t offset,
                                uint32_t n) {
        LocalTensor<float> local = q.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(local, g[offset], params, pad);
        q.EnQue(local);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> p = pIn.DeQue<float>();
        LocalTensor<float> g = gIn.DeQue<float>();
        LocalTensor<float> m = mIn.DeQue<float>();
        LocalTensor<float> v = vIn.DeQue<float>();
        LocalTensor<float> pLocal = pOut.AllocTensor<float>();
        LocalTensor<float> mLocal = mOut.AllocTensor<float>();
        LocalTensor<float> vLocal = vOut.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        const int32_t cnt = static_cast<int32_t>(n);

        Muls(pLocal, p, decay_, cnt);            // decoupled weight decay
        Muls(mLocal, m, beta1_, cnt);
        Muls(vLocal, v, beta2_, cnt);
        Mul(tmp, g, g, cnt);
        PipeBarrier<PIPE_V>();
        Axpy(mLocal, g, omb1_, cnt);             // m = beta1 m + (1 - beta1) g
        Axpy(vLocal, tmp, omb2_, cnt);           // v = beta2 v + (1 - beta2) g^2
        PipeBarrier<PIPE_V>();
        Sqrt(tmp, vLocal, cnt);
        PipeBarrier<PIPE_V>();
        Muls(tmp, tmp, invSqrtBc2_, cnt);
        PipeBarrier<PIPE_V>();
        Adds(tmp, tmp, eps_, cnt);               // denom = sqrt(v) / sqrt(bc2) + eps
        PipeBarrier<PIPE_V>();
        Div(tmp, mLocal, tmp, cnt);
        PipeBarrier<PIPE_V>();
        Axpy(pLocal, tmp, -stepSize_, cnt);     // p -= lr / bc1 * m / denom

        pOut.EnQue<float>(pLocal);
        mOut.EnQue<float>(mLocal);
        vOut.EnQue<float>(vLocal);
        pIn.FreeTensor(p);
        gIn.FreeTensor(g);
        mIn.FreeTensor(m);
        vIn.FreeTensor(v);
    }

    __aicore__ inline void Store(TQue<QuePosition::VECOUT, BUFFER_NUM>& q, const GlobalTensor<float>& g, uint32_t offset,
                                 uint32_t n) {
        LocalTensor<float> local = q.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(g[offset], local, params);
        q.FreeTensor(local);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> pIn, gIn, mIn, vIn;
    TQue<QuePosition::VECOUT, BUFFER_NUM> pOut, mOut, vOut;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<float> pGm, gGm, mGm, vGm;
    uint32_t length_ = 0, tile_ = 0;
    float decay_ = 1.0f, beta1_ = 0.0f, omb1_ = 0.0f, beta2_ = 0.0f, omb2_ = 0.0f, eps_ = 0.0f;
    float stepSize_ = 0.0f, invSqrtBc2_ = 1.0f;
};

extern "C" __global__ __aicore__ void adamw_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR exp_avg, GM_ADDR exp_avg_sq,
                                                   GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AdamWTilingData, tilingData, tiling);
    KernelAdamW op;
    op.Init(param, grad, exp_avg, exp_avg_sq, tilingData);
    op.Process();
}
