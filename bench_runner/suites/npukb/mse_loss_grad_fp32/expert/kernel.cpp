// mse_loss_grad_fp32, expert version: the upstream scalar read once from GM by the scalar unit and
// folded with 2/N into one factor; double-buffered tiles of x and t, Sub + Muls per tile,
// DataCopyPad on every tile so any length is copied exactly.
#include "kernel_operator.h"
#include "mse_loss_grad_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelMseLossGrad {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR t, GM_ADDR dy, GM_ADDR dx, const MseLossGradTilingData& td) {
        const uint32_t start = td.blockLength * GetBlockIdx();
        length_ = start >= td.totalLength ? 0 : (td.totalLength - start < td.blockLength ? td.totalLength - start
                                                                                        : td.blockLength);
        tile_ = td.tileLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
        tGm.SetGlobalBuffer((__gm__ float*)t + start, length_);
        dxGm.SetGlobalBuffer((__gm__ float*)dx + start, length_);
        dyGm.SetGlobalBuffer((__gm__ float*)dy, 1);
        scale_ = 2.0f * td.invTotal * dyGm.GetValue(0);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(tQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(dxQueue, BUFFER_NUM, tile_ * sizeof(float));
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
        LocalTensor<float> tLocal = tQueue.AllocTensor<float>();
        DataCopyPad(tLocal, tGm[offset], params, pad);
        tQueue.EnQue(tLocal);
    }

    __aicore__ inline void Compute(uint32_t len) {
        const int32_t n = static_cast<int32_t>(len);
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> tLocal = tQueue.DeQue<float>();
        LocalTensor<float> d = dxQueue.AllocTensor<float>();
        Sub(d, xLocal, tLocal, n);
        Muls(d, d, scale_, n);
        dxQueue.EnQue<float>(d);
        xQueue.FreeTensor(xLocal);
        tQueue.FreeTensor(tLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> d = dxQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(dxGm[offset], d, params);
        dxQueue.FreeTensor(d);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue, tQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> dxQueue;
    GlobalTensor<float> xGm, tGm, dyGm, dxGm;
    float scale_ = 0.0f;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void mse_loss_grad_custom(GM_ADDR x, GM_ADDR t, GM_ADDR dy, GM_ADDR dx,
                                                           GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MseLossGradTilingData, tilingData, tiling);
    KernelMseLossGrad op;
    op.Init(x, t, dy, dx, tilingData);
    op.Process();
}
