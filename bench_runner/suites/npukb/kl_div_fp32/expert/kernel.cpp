// kl_div_fp32, expert version: double-buffered tiles of both inputs; t = (Ln(p) - x) * p on the
// vector unit and one ReduceSum per tile into a UB vector of partials, folded by a last
// ReduceSum. Each core leaves its sum in its workspace slot; after SyncAll core 0 writes
// sum / M.
#include "kernel_operator.h"
#include "kl_div_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILES = 64;

class KernelKlDiv {
  public:
    __aicore__ inline void Init(GM_ADDR input, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace,
                                const KlDivTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        used_ = t.usedCores;
        rows_ = t.rows;
        xGm.SetGlobalBuffer((__gm__ float*)input + start, length_);
        pGm.SetGlobalBuffer((__gm__ float*)target + start, length_);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);
        wsGm.SetGlobalBuffer((__gm__ float*)workspace, used_ * 8);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(pQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(tBuf, tile_ * sizeof(float));
        pipe.InitBuffer(workBuf, tile_ * sizeof(float));
        pipe.InitBuffer(partBuf, MAX_TILES * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(slotBuf, (used_ * 8 > 8 ? used_ * 8 : 8) * sizeof(float));
    }

    __aicore__ inline void Process() {
        LocalTensor<float> part = partBuf.Get<float>();
        uint32_t tiles = 0;
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            CopyIn(offset, n);
            Compute(n, part[tiles++]);
        }
        float total = 0.0f;
        if (tiles) {
            LocalTensor<float> red = redBuf.Get<float>();
            ReduceSum(red, part, workBuf.Get<float>(), static_cast<int32_t>(tiles));
            Sync<HardEvent::V_S>();
            total = red.GetValue(0);
        }
        Combine(total);
    }

  private:
    template <HardEvent E>
    __aicore__ inline void Sync() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        LocalTensor<float> pLocal = pQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], params, pad);
        DataCopyPad(pLocal, pGm[offset], params, pad);
        xQueue.EnQue(xLocal);
        pQueue.EnQue(pLocal);
    }

    __aicore__ inline void Compute(uint32_t n, const LocalTensor<float>& dst) {
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> pLocal = pQueue.DeQue<float>();
        LocalTensor<float> t = tBuf.Get<float>();
        const int32_t cnt = static_cast<int32_t>(n);
        Ln(t, pLocal, cnt);
        PipeBarrier<PIPE_V>();
        Sub(t, t, xLocal, cnt);
        PipeBarrier<PIPE_V>();
        Mul(t, t, pLocal, cnt);
        PipeBarrier<PIPE_V>();
        ReduceSum(dst, t, workBuf.Get<float>(), cnt);
        PipeBarrier<PIPE_V>();
        xQueue.FreeTensor(xLocal);
        pQueue.FreeTensor(pLocal);
    }

    __aicore__ inline void Combine(float total) {
        LocalTensor<float> slot = slotBuf.Get<float>();
        for (int32_t i = 0; i < 8; ++i) slot.SetValue(i, 0.0f);
        slot.SetValue(0, total);
        Sync<HardEvent::S_MTE3>();
        DataCopy(wsGm[GetBlockIdx() * 8], slot, 8);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        if (GetBlockIdx() != 0) return;
        DataCopy(slot, wsGm, used_ * 8);
        Sync<HardEvent::MTE2_S>();
        float sum = 0.0f;
        for (uint32_t i = 0; i < used_; ++i) sum += slot.GetValue(i * 8);
        slot.SetValue(0, sum / static_cast<float>(rows_));
        Sync<HardEvent::S_MTE3>();
        DataCopyExtParams params{1, sizeof(float), 0, 0, 0};
        DataCopyPad(lossGm, slot, params);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue, pQueue;
    TBuf<QuePosition::VECCALC> tBuf, workBuf, partBuf, redBuf, slotBuf;
    GlobalTensor<float> xGm, pGm, lossGm, wsGm;
    uint32_t length_ = 0, tile_ = 0, used_ = 0, rows_ = 0;
};

extern "C" __global__ __aicore__ void kl_div_custom(GM_ADDR input, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace,
                                                    GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    GET_TILING_DATA_WITH_STRUCT(KlDivTilingData, tilingData, tiling);
    KernelKlDiv op;
    op.Init(input, target, loss, workspace, tilingData);
    op.Process();
}
