// sgd_momentum_fp32, expert version: double-buffered tiles over the three tensors; the update is
// Muls/Axpy/Add on the vector unit, and param / momentum_buf are written back to their own
// buffers (in place).
#include "kernel_operator.h"
#include "sgd_momentum_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSgdMomentum {
  public:
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR buf, const SgdMomentumTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        lr_ = t.lr;
        momentum_ = t.momentum;
        keep_ = 1.0f - t.dampening;
        wd_ = t.weightDecay;
        nesterov_ = t.nesterov != 0;
        pGm.SetGlobalBuffer((__gm__ float*)param + start, length_);
        gGm.SetGlobalBuffer((__gm__ float*)grad + start, length_);
        bGm.SetGlobalBuffer((__gm__ float*)buf + start, length_);
        pipe.InitBuffer(pIn, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(gIn, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(bIn, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(pOut, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(bOut, BUFFER_NUM, tile_ * sizeof(float));
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
    __aicore__ inline void Load(TQue<QuePosition::VECIN, BUFFER_NUM>& q, const GlobalTensor<float>& g, uint32_t offset,
                                uint32_t n) {
        LocalTensor<float> local = q.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(local, g[offset], params, pad);
        q.EnQue(local);
    }

    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
        Load(pIn, pGm, offset, n);
        Load(gIn, gGm, offset, n);
        Load(bIn, bGm, offset, n);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> p = pIn.DeQue<float>();
        LocalTensor<float> dLocal = gIn.DeQue<float>();  // d is built in the grad tile
        LocalTensor<float> b = bIn.DeQue<float>();
        LocalTensor<float> pLocal = pOut.AllocTensor<float>();
        LocalTensor<float> bLocal = bOut.AllocTensor<float>();
        const int32_t cnt = static_cast<int32_t>(n);

        Axpy(dLocal, p, wd_, cnt);                 // d = grad + wd * param
        Muls(bLocal, b, momentum_, cnt);           // buf = momentum * buf
        PipeBarrier<PIPE_V>();
        Axpy(bLocal, dLocal, keep_, cnt);          //       + (1 - dampening) * d
        PipeBarrier<PIPE_V>();
        Adds(pLocal, p, 0.0f, cnt);                // param copy to update in the output tile
        if (nesterov_) {
            Axpy(dLocal, bLocal, momentum_, cnt);  // d = d + momentum * buf
            PipeBarrier<PIPE_V>();
            Axpy(pLocal, dLocal, -lr_, cnt);
        } else {
            PipeBarrier<PIPE_V>();
            Axpy(pLocal, bLocal, -lr_, cnt);       // param -= lr * buf
        }

        pOut.EnQue<float>(pLocal);
        bOut.EnQue<float>(bLocal);
        pIn.FreeTensor(p);
        gIn.FreeTensor(dLocal);
        bIn.FreeTensor(b);
    }

    __aicore__ inline void Store(TQue<QuePosition::VECOUT, BUFFER_NUM>& q, const GlobalTensor<float>& g, uint32_t offset,
                                 uint32_t n) {
        LocalTensor<float> local = q.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(g[offset], local, params);
        q.FreeTensor(local);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        Store(pOut, pGm, offset, n);
        Store(bOut, bGm, offset, n);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> pIn, gIn, bIn;
    TQue<QuePosition::VECOUT, BUFFER_NUM> pOut, bOut;
    GlobalTensor<float> pGm, gGm, bGm;
    uint32_t length_ = 0, tile_ = 0;
    float lr_ = 0.0f, momentum_ = 0.0f, keep_ = 1.0f, wd_ = 0.0f;
    bool nesterov_ = false;
};

extern "C" __global__ __aicore__ void sgd_momentum_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR momentum_buf,
                                                          GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SgdMomentumTilingData, tilingData, tiling);
    KernelSgdMomentum op;
    op.Init(param, grad, momentum_buf, tilingData);
    op.Process();
}
