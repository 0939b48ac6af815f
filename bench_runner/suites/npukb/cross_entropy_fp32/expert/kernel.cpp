// cross_entropy_fp32, expert version. Per row that is not ignored: ReduceMax (read on the scalar
// unit), Adds(-max) + Exp + ReduceSum written straight into a per-batch UB vector of sums
// (rows longer than one chunk: a max pass, then a sum-of-exp pass into per-chunk partials);
// the scalar unit records max - logits[target] per row. Per batch: Ln(sums) + those, one
// ReduceSum. Each core leaves {sum, count} in its workspace slot; after SyncAll core 0 writes
// the mean.
#include "kernel_operator.h"
#include "cross_entropy_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CHUNKS = 64;

class KernelCrossEntropy {
  public:
    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace,
                                const CrossEntropyTilingData& t) {
        cols_ = t.cols;
        tile_ = t.tileCols;
        batch_ = t.batch;
        used_ = t.usedCores;
        ignore_ = t.ignoreIndex;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)logits + static_cast<uint64_t>(first) * cols_,
                            static_cast<uint64_t>(rows_) * cols_);
        tGm.SetGlobalBuffer((__gm__ int32_t*)target + first, rows_);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);
        wsGm.SetGlobalBuffer((__gm__ float*)workspace, used_ * 8);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(workBuf, tile_ * sizeof(float));
        pipe.InitBuffer(sumBuf, batch_ * sizeof(float));
        pipe.InitBuffer(cBuf, batch_ * sizeof(float));
        pipe.InitBuffer(tgtBuf, batch_ * sizeof(int32_t));
        pipe.InitBuffer(partBuf, MAX_CHUNKS * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(slotBuf, (used_ * 8 > 8 ? used_ * 8 : 8) * sizeof(float));
    }

    __aicore__ inline void Process() {
        float total = 0.0f;
        uint32_t count = 0;
        LocalTensor<float> sums = sumBuf.Get<float>();
        LocalTensor<float> cvec = cBuf.Get<float>();
        LocalTensor<int32_t> tgts = tgtBuf.Get<int32_t>();
        LocalTensor<float> red = redBuf.Get<float>();
        for (uint32_t b0 = 0; b0 < rows_; b0 += batch_) {
            const uint32_t bn = rows_ - b0 < batch_ ? rows_ - b0 : batch_;
            DataCopyExtParams tp{1, static_cast<uint32_t>(bn * sizeof(int32_t)), 0, 0, 0};
            DataCopyPadExtParams<int32_t> tpad{false, 0, 0, 0};
            DataCopyPad(tgts, tGm[b0], tp, tpad);
            Duplicate(sums, 1.0f, static_cast<int32_t>(bn));  // ignored rows: ln(1) + 0
            Sync<HardEvent::MTE2_S>();
            for (uint32_t j = 0; j < bn; ++j) {
                const uint32_t r = b0 + j;
                const int32_t tgt = tgts.GetValue(j);
                if (tgt == ignore_) {
                    cvec.SetValue(j, 0.0f);
                    continue;
                }
                ++count;
                const float rowMax = RowLogSumExp(r, sums[j]);
                cvec.SetValue(j, rowMax - xGm.GetValue(static_cast<uint64_t>(r) * cols_ + tgt));
            }
            Sync<HardEvent::S_V>();
            const int32_t n = static_cast<int32_t>(bn);
            Ln(sums, sums, n);
            PipeBarrier<PIPE_V>();
            Add(sums, sums, cvec, n);  // logsumexp - logits[target] per row
            PipeBarrier<PIPE_V>();
            ReduceSum(red, sums, workBuf.Get<float>(), n);
            Sync<HardEvent::V_S>();
            total += red.GetValue(0);
            // The next batch's target copy overwrites tgts only after these scalar reads.
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

    __aicore__ inline LocalTensor<float> Load(uint32_t r, uint32_t c0, uint32_t n) {
        LocalTensor<float> x = xQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, xGm[static_cast<uint64_t>(r) * cols_ + c0], params, pad);
        xQueue.EnQue(x);
        return xQueue.DeQue<float>();
    }

    __aicore__ inline float ChunkMax(const LocalTensor<float>& x, uint32_t n) {
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceMax(red, x, workBuf.Get<float>(), static_cast<int32_t>(n));
        Sync<HardEvent::V_S>();
        return red.GetValue(0);
    }

    // sum_k exp(x - max) of the chunk into dst (a UB element).
    __aicore__ inline void ChunkSumExp(const LocalTensor<float>& x, uint32_t n, float rowMax,
                                       const LocalTensor<float>& dst) {
        const int32_t cnt = static_cast<int32_t>(n);
        Adds(x, x, -rowMax, cnt);
        PipeBarrier<PIPE_V>();
        Exp(x, x, cnt);
        PipeBarrier<PIPE_V>();
        ReduceSum(dst, x, workBuf.Get<float>(), cnt);
        PipeBarrier<PIPE_V>();
    }

    // Writes sum_k exp(x[r, k] - max) to dst and returns max.
    __aicore__ inline float RowLogSumExp(uint32_t r, const LocalTensor<float>& dst) {
        const uint32_t chunks = (cols_ + tile_ - 1) / tile_;
        if (chunks == 1) {
            LocalTensor<float> x = Load(r, 0, cols_);
            const float rowMax = ChunkMax(x, cols_);
            ChunkSumExp(x, cols_, rowMax, dst);
            xQueue.FreeTensor(x);
            return rowMax;
        }
        float rowMax = 0.0f;
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t c0 = c * tile_;
            const uint32_t n = cols_ - c0 < tile_ ? cols_ - c0 : tile_;
            LocalTensor<float> x = Load(r, c0, n);
            const float m = ChunkMax(x, n);
            rowMax = (c == 0 || m > rowMax) ? m : rowMax;
            xQueue.FreeTensor(x);
        }
        LocalTensor<float> part = partBuf.Get<float>();
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t c0 = c * tile_;
            const uint32_t n = cols_ - c0 < tile_ ? cols_ - c0 : tile_;
            LocalTensor<float> x = Load(r, c0, n);
            ChunkSumExp(x, n, rowMax, part[c]);
            xQueue.FreeTensor(x);
        }
        ReduceSum(dst, part, workBuf.Get<float>(), static_cast<int32_t>(chunks));
        PipeBarrier<PIPE_V>();
        return rowMax;
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
        slot.SetValue(0, sum / cnt);
        Sync<HardEvent::S_MTE3>();
        DataCopyExtParams params{1, sizeof(float), 0, 0, 0};
        DataCopyPad(lossGm, slot, params);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TBuf<QuePosition::VECCALC> workBuf, sumBuf, cBuf, tgtBuf, partBuf, redBuf, slotBuf;
    GlobalTensor<float> xGm, lossGm, wsGm;
    GlobalTensor<int32_t> tGm;
    uint32_t rows_ = 0, cols_ = 0, tile_ = 0, batch_ = 0, used_ = 0;
    int32_t ignore_ = -100;
};

extern "C" __global__ __aicore__ void cross_entropy_custom(GM_ADDR logits, GM_ADDR target, GM_ADDR loss,
                                                           GM_ADDR workspace, GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    GET_TILING_DATA_WITH_STRUCT(CrossEntropyTilingData, tilingData, tiling);
    KernelCrossEntropy op;
    op.Init(logits, target, loss, workspace, tilingData);
    op.Process();
}
