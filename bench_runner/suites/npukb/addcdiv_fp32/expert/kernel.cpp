// addcdiv_fp32, expert version: double-buffered tiles of three inputs: Div, Muls, Add.
#include "kernel_operator.h"
#include "addcdiv_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAddcdiv {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, const AddcdivTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        value_ = t.value;
        xGm.SetGlobalBuffer((__gm__ float*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        t1Gm.SetGlobalBuffer((__gm__ float*)t1 + first, length_);
        pipe.InitBuffer(t1Queue, BUFFER_NUM, tile_ * sizeof(float));
        t2Gm.SetGlobalBuffer((__gm__ float*)t2 + first, length_);
        pipe.InitBuffer(t2Queue, BUFFER_NUM, tile_ * sizeof(float));
        outGm.SetGlobalBuffer((__gm__ float*)out + first, length_);
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
        LocalTensor<float> t1Local = t1Queue.AllocTensor<float>();
        DataCopyPad(t1Local, t1Gm[offset], params, pad);
        t1Queue.EnQue(t1Local);
        LocalTensor<float> t2Local = t2Queue.AllocTensor<float>();
        DataCopyPad(t2Local, t2Gm[offset], params, pad);
        t2Queue.EnQue(t2Local);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> t1Local = t1Queue.DeQue<float>();
        LocalTensor<float> t2Local = t2Queue.DeQue<float>();
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> f0 = f0Buf.Get<float>();
        Div(f0, t1Local, t2Local, n);
        Muls(f0, f0, value_, n);
        Add(outLocal, xLocal, f0, n);
        outQueue.EnQue<float>(outLocal);
        xQueue.FreeTensor(xLocal);
        t1Queue.FreeTensor(t1Local);
        t2Queue.FreeTensor(t2Local);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> outLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> t1Queue;
    TQue<QuePosition::VECIN, BUFFER_NUM> t2Queue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> f0Buf;
    GlobalTensor<float> xGm, t1Gm, t2Gm;
    GlobalTensor<float> outGm;
    float value_ = 0.0f;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void addcdiv_custom(GM_ADDR x, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddcdivTilingData, tilingData, tiling);
    KernelAddcdiv op;
    op.Init(x, t1, t2, out, tilingData);
    op.Process();
}
