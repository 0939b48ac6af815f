// addcmul_fp16, expert version: double-buffered tiles of three half inputs, float32 arithmetic,
// one rounding to half.
#include "kernel_operator.h"
#include "addcmul_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAddcmul {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, const AddcmulTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        value_ = t.value;
        xGm.SetGlobalBuffer((__gm__ half*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(half));
        t1Gm.SetGlobalBuffer((__gm__ half*)t1 + first, length_);
        pipe.InitBuffer(t1Queue, BUFFER_NUM, tile_ * sizeof(half));
        t2Gm.SetGlobalBuffer((__gm__ half*)t2 + first, length_);
        pipe.InitBuffer(t2Queue, BUFFER_NUM, tile_ * sizeof(half));
        outGm.SetGlobalBuffer((__gm__ half*)out + first, length_);
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
        LocalTensor<half> t1Local = t1Queue.AllocTensor<half>();
        DataCopyPad(t1Local, t1Gm[offset], params, pad);
        t1Queue.EnQue(t1Local);
        LocalTensor<half> t2Local = t2Queue.AllocTensor<half>();
        DataCopyPad(t2Local, t2Gm[offset], params, pad);
        t2Queue.EnQue(t2Local);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        LocalTensor<half> t1Local = t1Queue.DeQue<half>();
        LocalTensor<half> t2Local = t2Queue.DeQue<half>();
        LocalTensor<half> outLocal = outQueue.AllocTensor<half>();
        LocalTensor<float> f0 = f0Buf.Get<float>();
        LocalTensor<float> f1 = f1Buf.Get<float>();
        Cast(f0, t1Local, RoundMode::CAST_NONE, n);
        Cast(f1, t2Local, RoundMode::CAST_NONE, n);
        Mul(f0, f0, f1, n);
        Muls(f0, f0, value_, n);
        Cast(f1, xLocal, RoundMode::CAST_NONE, n);
        Add(f0, f0, f1, n);
        Cast(outLocal, f0, RoundMode::CAST_RINT, n);
        outQueue.EnQue<half>(outLocal);
        xQueue.FreeTensor(xLocal);
        t1Queue.FreeTensor(t1Local);
        t2Queue.FreeTensor(t2Local);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<half> outLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> t1Queue;
    TQue<QuePosition::VECIN, BUFFER_NUM> t2Queue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> f0Buf, f1Buf;
    GlobalTensor<half> xGm, t1Gm, t2Gm;
    GlobalTensor<half> outGm;
    float value_ = 0.0f;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void addcmul_custom(GM_ADDR x, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddcmulTilingData, tilingData, tiling);
    KernelAddcmul op;
    op.Init(x, t1, t2, out, tilingData);
    op.Process();
}
