// moe_token_routing_fp32, expert version: a stable counting sort across cores.
// Pass 1: each core histograms the expert ids of its tokens (scalar updates of a UB histogram)
// and publishes the row of E counts in the user workspace; SyncAll. Pass 2: every core loads
// all rows, sums the rows of earlier cores and of all cores with vector Adds, turns them into
// its start position per expert (exclusive prefix over experts of the totals + the earlier
// cores' counts of the same expert), then walks its (token, slot) pairs in order: the next
// position of the pair's expert is its destination p; the token's row (already in UB, tiles
// double-buffered through a VECIN->VECOUT bound queue) goes to expanded_x[p] with one
// DataCopyPad, p goes to expanded_row_idx (written contiguously at the end). Core 0 writes the
// per-expert totals.
#include "kernel_operator.h"
#include "moe_routing_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelMoeRouting {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR ids, GM_ADDR ex, GM_ADDR ridx, GM_ADDR cnt, GM_ADDR workspace,
                                const MoeRoutingTilingData& t) {
        t_ = t;
        tok0_ = t.tokensPerCore * GetBlockIdx();
        ntok_ = tok0_ >= t.tokens ? 0 : (t.tokens - tok0_ < t.tokensPerCore ? t.tokens - tok0_ : t.tokensPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, t.tokens * t.hidden);
        idGm.SetGlobalBuffer((__gm__ int32_t*)ids, t.tokens * t.topk);
        exGm.SetGlobalBuffer((__gm__ float*)ex, t.tokens * t.topk * t.hidden);
        ridxGm.SetGlobalBuffer((__gm__ int32_t*)ridx, t.tokens * t.topk);
        cntGm.SetGlobalBuffer((__gm__ int32_t*)cnt, t.experts);
        wsGm.SetGlobalBuffer((__gm__ int32_t*)GetUserWorkspace(workspace), t.usedCores * t.expertsAligned);
        const uint32_t pairs = (t.tokensPerCore * t.topk + 7) / 8 * 8;
        pipe.InitBuffer(xQueue, BUFFER_NUM, t.rowTile * t.hiddenAligned * sizeof(float));
        pipe.InitBuffer(idBuf, pairs * sizeof(int32_t));
        pipe.InitBuffer(ridxBuf, pairs * sizeof(int32_t));
        pipe.InitBuffer(histBuf, t.expertsAligned * sizeof(int32_t));
        pipe.InitBuffer(sumBuf, 2 * t.expertsAligned * sizeof(int32_t));
        pipe.InitBuffer(wsAllBuf, t.usedCores * t.expertsAligned * sizeof(int32_t));
    }

    __aicore__ inline void Process() {
        const uint32_t ea = t_.expertsAligned;
        const uint32_t pairs = ntok_ * t_.topk;
        LocalTensor<int32_t> ids = idBuf.Get<int32_t>();
        LocalTensor<int32_t> hist = histBuf.Get<int32_t>();
        // Pass 1: this core's histogram.
        DataCopyExtParams ip{1, static_cast<uint32_t>(pairs * sizeof(int32_t)), 0, 0, 0};
        DataCopyPadExtParams<int32_t> ipad{false, 0, 0, 0};
        DataCopyPad(ids, idGm[tok0_ * t_.topk], ip, ipad);
        Duplicate(hist, 0, static_cast<int32_t>(ea));
        SyncPipes<HardEvent::MTE2_S>();
        SyncPipes<HardEvent::V_S>();
        for (uint32_t i = 0; i < pairs; ++i) {
            const int32_t e = ids.GetValue(i);
            hist.SetValue(e, hist.GetValue(e) + 1);
        }
        SyncPipes<HardEvent::S_MTE3>();
        DataCopyExtParams hp{1, static_cast<uint32_t>(t_.experts * sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(wsGm[GetBlockIdx() * ea], hist, hp);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        // Pass 2: start positions.
        LocalTensor<int32_t> all = wsAllBuf.Get<int32_t>();
        LocalTensor<int32_t> before = sumBuf.Get<int32_t>();
        LocalTensor<int32_t> total = before[ea];
        DataCopyExtParams ap{static_cast<uint16_t>(t_.usedCores), static_cast<uint32_t>(t_.experts * sizeof(int32_t)),
                             static_cast<uint32_t>((ea - t_.experts) * sizeof(int32_t)), 0, 0};
        DataCopyPad(all, wsGm, ap, ipad);
        Duplicate(before, 0, static_cast<int32_t>(2 * ea));
        SyncPipes<HardEvent::MTE2_V>();
        for (uint32_t c = 0; c < t_.usedCores; ++c) {
            Add(total, total, all[c * ea], static_cast<int32_t>(ea));
            if (c < GetBlockIdx()) Add(before, before, all[c * ea], static_cast<int32_t>(ea));
        }
        if (GetBlockIdx() == 0) {
            SyncPipes<HardEvent::V_MTE3>();
            DataCopyPad(cntGm, total, hp);
        }
        SyncPipes<HardEvent::V_S>();
        int32_t run = 0;
        for (uint32_t e = 0; e < t_.experts; ++e) {
            const int32_t tot = total.GetValue(e);
            before.SetValue(e, run + before.GetValue(e));
            run += tot;
        }
        // Pass 2: scatter.
        LocalTensor<int32_t> ridx = ridxBuf.Get<int32_t>();
        DataCopyExtParams rowOut{1, static_cast<uint32_t>(t_.hidden * sizeof(float)), 0, 0, 0};
        for (uint32_t r0 = 0; r0 < ntok_; r0 += t_.rowTile) {
            const uint32_t nr = ntok_ - r0 < t_.rowTile ? ntok_ - r0 : t_.rowTile;
            LocalTensor<float> xt = xQueue.AllocTensor<float>();
            DataCopyExtParams xp{static_cast<uint16_t>(nr), static_cast<uint32_t>(t_.hidden * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> xpad{false, 0, 0, 0.0f};
            DataCopyPad(xt, xGm[(tok0_ + r0) * t_.hidden], xp, xpad);
            xQueue.EnQue(xt);
            xt = xQueue.DeQue<float>();
            for (uint32_t r = 0; r < nr; ++r) {
                for (uint32_t k = 0; k < t_.topk; ++k) {
                    const uint32_t f = (r0 + r) * t_.topk + k;
                    const int32_t e = ids.GetValue(f);
                    const int32_t p = before.GetValue(e);
                    before.SetValue(e, p + 1);
                    ridx.SetValue(f, p);
                    DataCopyPad(exGm[static_cast<uint32_t>(p) * t_.hidden], xt[r * t_.hiddenAligned], rowOut);
                }
            }
            xQueue.FreeTensor(xt);
        }
        SyncPipes<HardEvent::S_MTE3>();
        DataCopyPad(ridxGm[tok0_ * t_.topk], ridx, ip);
    }

  private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> xQueue;
    TBuf<QuePosition::VECCALC> idBuf, ridxBuf, histBuf, sumBuf, wsAllBuf;
    GlobalTensor<float> xGm, exGm;
    GlobalTensor<int32_t> idGm, ridxGm, cntGm, wsGm;
    MoeRoutingTilingData t_;
    uint32_t tok0_ = 0;
    uint32_t ntok_ = 0;
};

extern "C" __global__ __aicore__ void moe_token_routing_custom(GM_ADDR x, GM_ADDR expert_ids, GM_ADDR expanded_x,
                                                               GM_ADDR expanded_row_idx, GM_ADDR expert_counts,
                                                               GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MoeRoutingTilingData, tilingData, tiling);
    KernelMoeRouting op;
    op.Init(x, expert_ids, expanded_x, expanded_row_idx, expert_counts, workspace, tilingData);
    op.Process();
}
