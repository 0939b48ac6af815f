// moe_gating_topk_softmax_fp32, expert version. Tokens are split over cores; a tile of rowTile
// tokens is copied in with one strided DataCopyPad. Per token: ReduceMax, Adds(-max), Exp,
// ReduceSum give the unnormalised probabilities; then k rounds of ReduceMax with calIndex pick
// the largest remaining one (first index on ties, i.e. the smaller expert id), which is then
// knocked out with -1 (probabilities are >= 0). The k (weight, id) pairs of every token of the
// tile are gathered in double-buffered output tiles and written with one DataCopyPad each.
#include "kernel_operator.h"
#include "moe_gating_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelMoeGating {
  public:
    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR w, GM_ADDR ids, const MoeGatingTilingData& t) {
        t_ = t;
        row0_ = t.rowsPerCore * GetBlockIdx();
        rows_ = row0_ >= t.tokens ? 0 : (t.tokens - row0_ < t.rowsPerCore ? t.tokens - row0_ : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)logits, t.tokens * t.experts);
        wGm.SetGlobalBuffer((__gm__ float*)w, t.tokens * t.k);
        idGm.SetGlobalBuffer((__gm__ int32_t*)ids, t.tokens * t.k);
        const uint32_t outLen = (t.rowTile * t.k + 7) / 8 * 8;
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.rowTile * t.eAligned * sizeof(float));
        pipe.InitBuffer(wQueue, BUFFER_NUM, outLen * sizeof(float));
        pipe.InitBuffer(idQueue, BUFFER_NUM, outLen * sizeof(int32_t));
        pipe.InitBuffer(expBuf, t.eAligned * sizeof(float));
        pipe.InitBuffer(workBuf, t.eAligned * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t r0 = 0; r0 < rows_; r0 += t_.rowTile) {
            const uint32_t nr = rows_ - r0 < t_.rowTile ? rows_ - r0 : t_.rowTile;
            CopyIn(r0, nr);
            Compute(nr);
            CopyOut(r0, nr);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(nr), static_cast<uint32_t>(t_.experts * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, xGm[(row0_ + r0) * t_.experts], params, pad);
        inQueue.EnQue(x);
    }

    __aicore__ inline void SyncVS() {
        const auto e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void SyncSV() {
        const auto e = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void Compute(uint32_t nr) {
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<float> wOut = wQueue.AllocTensor<float>();
        LocalTensor<int32_t> idOut = idQueue.AllocTensor<int32_t>();
        LocalTensor<float> e = expBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> sc = scalarBuf.Get<float>();
        LocalTensor<uint32_t> scIdx = sc.ReinterpretCast<uint32_t>();
        const int32_t n = static_cast<int32_t>(t_.experts);
        for (uint32_t r = 0; r < nr; ++r) {
            LocalTensor<float> row = x[r * t_.eAligned];
            ReduceMax(sc, row, work, n);
            SyncVS();
            const float mx = sc.GetValue(0);
            Adds(e, row, -mx, n);
            Exp(e, e, n);
            ReduceSum(sc[4], e, work, n);
            SyncVS();
            const float sum = sc.GetValue(4);
            float picked[64];
            float pickedSum = 0.0f;
            for (uint32_t j = 0; j < t_.k; ++j) {
                SyncSV();
                ReduceMax(sc, e, work, n, true);
                SyncVS();
                const float v = sc.GetValue(0);
                const uint32_t idx = scIdx.GetValue(1);
                picked[j] = v;
                pickedSum += v;
                idOut.SetValue(r * t_.k + j, static_cast<int32_t>(idx));
                e.SetValue(idx, -1.0f);
            }
            const float inv = 1.0f / (t_.renormalize ? pickedSum : sum);
            for (uint32_t j = 0; j < t_.k; ++j) wOut.SetValue(r * t_.k + j, picked[j] * inv);
            SyncSV();
        }
        const auto eventSM = GetTPipePtr()->FetchEventID(HardEvent::S_MTE3);
        SetFlag<HardEvent::S_MTE3>(eventSM);
        WaitFlag<HardEvent::S_MTE3>(eventSM);
        wQueue.EnQue<float>(wOut);
        idQueue.EnQue<int32_t>(idOut);
        inQueue.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr) {
        LocalTensor<float> wOut = wQueue.DeQue<float>();
        LocalTensor<int32_t> idOut = idQueue.DeQue<int32_t>();
        DataCopyExtParams params{1, static_cast<uint32_t>(nr * t_.k * sizeof(float)), 0, 0, 0};
        DataCopyPad(wGm[(row0_ + r0) * t_.k], wOut, params);
        DataCopyPad(idGm[(row0_ + r0) * t_.k], idOut, params);
        wQueue.FreeTensor(wOut);
        idQueue.FreeTensor(idOut);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> wQueue, idQueue;
    TBuf<QuePosition::VECCALC> expBuf, workBuf, scalarBuf;
    GlobalTensor<float> xGm, wGm;
    GlobalTensor<int32_t> idGm;
    MoeGatingTilingData t_;
    uint32_t row0_ = 0;
    uint32_t rows_ = 0;
};

extern "C" __global__ __aicore__ void moe_gating_topk_softmax_custom(GM_ADDR logits, GM_ADDR weights,
                                                                     GM_ADDR expert_ids, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MoeGatingTilingData, tilingData, tiling);
    KernelMoeGating op;
    op.Init(logits, weights, expert_ids, tilingData);
    op.Process();
}
