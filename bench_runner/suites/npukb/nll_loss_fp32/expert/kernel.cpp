// nll_loss_fp32, expert version. Only one element per row is needed, so rows are never copied:
// targets come in batches (DataCopyPad, read on the scalar unit), the picked log-probabilities
// are read with GlobalTensor::GetValue into a UB vector (0 for ignored rows) and summed with one
// ReduceSum per batch. Each core leaves {sum, count} in its workspace slot; after SyncAll core 0
// writes -sum / count.
#include "kernel_operator.h"
#include "nll_loss_tiling.h"

using namespace AscendC;

class KernelNllLoss {
  public:
    __aicore__ inline void Init(GM_ADDR logp, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace,
                                const NllLossTilingData& t) {
        cols_ = t.cols;
        batch_ = t.batch;
        used_ = t.usedCores;
        ignore_ = t.ignoreIndex;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)logp + static_cast<uint64_t>(first) * cols_,
                            static_cast<uint64_t>(rows_) * cols_);
        tGm.SetGlobalBuffer((__gm__ int32_t*)target + first, rows_);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);
        wsGm.SetGlobalBuffer((__gm__ float*)workspace, used_ * 8);
        pipe.InitBuffer(tgtBuf, batch_ * sizeof(int32_t));
        pipe.InitBuffer(pickBuf, batch_ * sizeof(float));
        pipe.InitBuffer(workBuf, batch_ * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(slotBuf, (used_ * 8 > 8 ? used_ * 8 : 8) * sizeof(float));
    }

    __aicore__ inline void Process() {
        float total = 0.0f;
        uint32_t count = 0;
        LocalTensor<int32_t> tgts = tgtBuf.Get<int32_t>();
        LocalTensor<float> picks = pickBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        for (uint32_t b0 = 0; b0 < rows_; b0 += batch_) {
            const uint32_t bn = rows_ - b0 < batch_ ? rows_ - b0 : batch_;
            DataCopyExtParams tp{1, static_cast<uint32_t>(bn * sizeof(int32_t)), 0, 0, 0};
            DataCopyPadExtParams<int32_t> tpad{false, 0, 0, 0};
            DataCopyPad(tgts, tGm[b0], tp, tpad);
            Sync<HardEvent::MTE2_S>();
            for (uint32_t j = 0; j < bn; ++j) {
                const int32_t tgt = tgts.GetValue(j);
                if (tgt == ignore_) {
                    picks.SetValue(j, 0.0f);
                    continue;
                }
                ++count;
                picks.SetValue(j, xGm.GetValue(static_cast<uint64_t>(b0 + j) * cols_ + tgt));
            }
            Sync<HardEvent::S_V>();
            ReduceSum(red, picks, workBuf.Get<float>(), static_cast<int32_t>(bn));
            Sync<HardEvent::V_S>();
            total += red.GetValue(0);
            Sync<HardEvent::S_MTE2>();
        }
        Combine(total, count);
    }

  private:
    template <HardEvent E>
    __aicore__ inline void Sync() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void Combine(float total, uint32_t count) {
        LocalTensor<float> slot = slotBuf.Get<float>();
        for (int32_t i = 0; i < 8; ++i) slot.SetValue(i, 0.0f);
        slot.SetValue(0, total);
        slot.SetValue(1, static_cast<float>(count));
        Sync<HardEvent::S_MTE3>();
        DataCopy(wsGm[GetBlockIdx() * 8], slot, 8);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        if (GetBlockIdx() != 0) return;
        DataCopy(slot, wsGm, used_ * 8);
        Sync<HardEvent::MTE2_S>();
        float sum = 0.0f;
        float cnt = 0.0f;
        for (uint32_t i = 0; i < used_; ++i) {
            sum += slot.GetValue(i * 8);
            cnt += slot.GetValue(i * 8 + 1);
        }
        slot.SetValue(0, -sum / cnt);
        Sync<HardEvent::S_MTE3>();
        DataCopyExtParams params{1, sizeof(float), 0, 0, 0};
        DataCopyPad(lossGm, slot, params);
    }

    TPipe pipe;
    TBuf<QuePosition::VECCALC> tgtBuf, pickBuf, workBuf, redBuf, slotBuf;
    GlobalTensor<float> xGm, lossGm, wsGm;
    GlobalTensor<int32_t> tGm;
    uint32_t rows_ = 0, cols_ = 0, batch_ = 0, used_ = 0;
    int32_t ignore_ = -100;
};

extern "C" __global__ __aicore__ void nll_loss_custom(GM_ADDR logp, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    GET_TILING_DATA_WITH_STRUCT(NllLossTilingData, tilingData, tiling);
    KernelNllLoss op;
    op.Init(logp, target, loss, workspace, tilingData);
    op.Process();
}
