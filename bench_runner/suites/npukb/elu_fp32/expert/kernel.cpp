// elu_fp32, expert version: branch-free: max(x, 0) + alpha * (exp(min(x, 0)) - 1), double-
// buffered tiles.
#include "kernel_operator.h"
#include "elu_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelElu {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const EluTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        alpha_ = t.alpha;
        xGm.SetGlobalBuffer((__gm__ float*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        outGm.SetGlobalBuffer((__gm__ float*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(f0Buf, tile_ * sizeof(float));
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
        LocalTensor<float> f0 = f0Buf.Get<float>();
        // alpha * (exp(min(x, 0)) - 1) is 0 for x >= 0; max(x, 0) is 0 for x <= 0: their sum is ELU.
        Mins(f0, xLocal, 0.0f, n);
        Exp(f0, f0, n);
        Adds(f0, f0, -1.0f, n);
        Muls(f0, f0, alpha_, n);
        Maxs(outLocal, xLocal, 0.0f, n);
        Add(outLocal, outLocal, f0, n);
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
    TBuf<QuePosition::VECCALC> f0Buf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> outGm;
    float alpha_ = 0.0f;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void elu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(EluTilingData, tilingData, tiling);
    KernelElu op;
    op.Init(x, y, tilingData);
    op.Process();
}
