// gelu_grad_fp32, expert version: double-buffered tiles, DataCopyPad on every tile so any length is
// copied exactly, the formula composed from basic vector instructions.
#include "kernel_operator.h"
#include "gelu_grad_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float K = 0.7978845608028654f;   // sqrt(2 / pi)
constexpr float C = 0.044715f;

class KernelGeluGrad {
  public:
    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, const GeluGradTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        dyGm.SetGlobalBuffer((__gm__ float*)dy + start, length_);
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
        dxGm.SetGlobalBuffer((__gm__ float*)dx + start, length_);
        pipe.InitBuffer(dyQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(dxQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(x2Buf, tile_ * sizeof(float));
        pipe.InitBuffer(sBuf, tile_ * sizeof(float));
        pipe.InitBuffer(uBuf, tile_ * sizeof(float));
        pipe.InitBuffer(wBuf, tile_ * sizeof(float));
        pipe.InitBuffer(onesBuf, tile_ * sizeof(float));
        Duplicate(onesBuf.Get<float>(), 1.0f, static_cast<int32_t>(tile_));
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
        LocalTensor<float> dyLocal = dyQueue.AllocTensor<float>();
        DataCopyPad(dyLocal, dyGm[offset], params, pad);
        dyQueue.EnQue(dyLocal);
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        DataCopyPad(xLocal, xGm[offset], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len) {
        const int32_t n = static_cast<int32_t>(len);
        LocalTensor<float> dyLocal = dyQueue.DeQue<float>();
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> dxLocal = dxQueue.AllocTensor<float>();
        LocalTensor<float> x2 = x2Buf.Get<float>();
        LocalTensor<float> s = sBuf.Get<float>();
        LocalTensor<float> u = uBuf.Get<float>();
        LocalTensor<float> w = wBuf.Get<float>();
        LocalTensor<float> ones = onesBuf.Get<float>();
        LocalTensor<float>& dy = dyLocal;
        LocalTensor<float>& x = xLocal;
        // s = sigmoid(2z) = 0.5 (1 + tanh z), z = k (x + c x^3); d = s + 2k x s (1 - s) (1 + 3c x^2)
        Mul(x2, x, x, n);
        Muls(s, x2, C, n);
        Adds(s, s, 1.0f, n);
        Mul(s, s, x, n);                // x + c x^3
        Muls(s, s, -2.0f * K, n);       // -2z
        Exp(s, s, n);
        Adds(s, s, 1.0f, n);
        Div(s, ones, s, n);             // sigmoid(2z)
        Muls(u, x2, 3.0f * C, n);
        Adds(u, u, 1.0f, n);
        Muls(u, u, 2.0f * K, n);        // 2k (1 + 3c x^2)
        Muls(w, s, -1.0f, n);
        Adds(w, w, 1.0f, n);            // 1 - s
        Mul(w, w, s, n);
        Mul(w, w, x, n);
        Mul(w, w, u, n);
        Add(w, w, s, n);                // gelu'(x)
        Mul(dxLocal, w, dy, n);
        dxQueue.EnQue<float>(dxLocal);
        dyQueue.FreeTensor(dyLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> dxLocal = dxQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(dxGm[offset], dxLocal, params);
        dxQueue.FreeTensor(dxLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> dyQueue, xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> dxQueue;
    TBuf<QuePosition::VECCALC> x2Buf, sBuf, uBuf, wBuf, onesBuf;
    GlobalTensor<float> dyGm, xGm, dxGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void gelu_grad_custom(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GeluGradTilingData, tilingData, tiling);
    KernelGeluGrad op;
    op.Init(dy, x, dx, tilingData);
    op.Process();
}
