// mse_loss_fp32, expert version: each core accumulates (x - t)^2 lane-wise into a tile-sized
// float accumulator (double-buffered input tiles), reduces it once with ReduceSum and scales by
// 1/N; block 0 zeroes y, SyncAll orders that before every core's atomic-add copy of its partial.
#include "kernel_operator.h"
#include "mse_loss_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 512;   // reduction scratch (>= tileLength / 64)

class KernelMseLoss {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR t, GM_ADDR y, const MseLossTilingData& td) {
        const uint32_t start = td.blockLength * GetBlockIdx();
        length_ = start >= td.totalLength ? 0 : (td.totalLength - start < td.blockLength ? td.totalLength - start
                                                                                        : td.blockLength);
        tile_ = td.tileLength;
        invTotal_ = td.invTotal;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
        tGm.SetGlobalBuffer((__gm__ float*)t + start, length_);
        yGm.SetGlobalBuffer((__gm__ float*)y, 1);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(tQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(diffBuf, tile_ * sizeof(float));
        pipe.InitBuffer(accBuf, tile_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));
        pipe.InitBuffer(outBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process() {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> out = outBuf.Get<float>();
        DataCopyExtParams one{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        // Block 0 clears the output before anyone adds to it.
        if (GetBlockIdx() == 0) {
            Duplicate(out, 0.0f, 8);
            SyncPipes<HardEvent::V_MTE3>();
            DataCopyPad(yGm, out, one);
            SyncPipes<HardEvent::MTE3_V>();
        }
        Duplicate(acc, 0.0f, static_cast<int32_t>(tile_));
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            CopyIn(offset, n);
            Accumulate(n);
        }
        ReduceSum(out, acc, workBuf.Get<float>(), static_cast<int32_t>(tile_));
        Muls(out, out, invTotal_, 1);
        SyncPipes<HardEvent::V_MTE3>();
        SyncAll();   // y is zero before the first atomic add lands
        SetAtomicAdd<float>();
        DataCopyPad(yGm, out, one);
        SetAtomicNone();
    }

  private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes() {
        const auto ev = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

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

    __aicore__ inline void Accumulate(uint32_t len) {
        const int32_t n = static_cast<int32_t>(len);
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> tLocal = tQueue.DeQue<float>();
        LocalTensor<float> d = diffBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        Sub(d, xLocal, tLocal, n);
        Mul(d, d, d, n);
        Add(acc, acc, d, n);   // lanes past n keep their partial sums
        xQueue.FreeTensor(xLocal);
        tQueue.FreeTensor(tLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue, tQueue;
    TBuf<QuePosition::VECCALC> diffBuf, accBuf, workBuf, outBuf;
    GlobalTensor<float> xGm, tGm, yGm;
    float invTotal_ = 1.0f;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR x, GM_ADDR t, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MseLossTilingData, tilingData, tiling);
    KernelMseLoss op;
    op.Init(x, t, y, tilingData);
    op.Process();
}
