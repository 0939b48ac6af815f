// nonzero_fp32, expert version: a two-pass stream compaction across cores.
// Pass 1: every core turns its tiles into 0/1 indicators with vector instructions
// (CompareScalar NE 0 + Select against a ones vector, tiles zero-padded to 64 floats) and
// counts them with ReduceSum; the count goes to the core's 32-byte slot of the user workspace.
// SyncAll. Pass 2: each core adds up the counts of the cores before it (its output offset) and
// of all cores (the total), recomputes the indicators and compacts its indices with a scalar
// loop (no GatherMask on this target), writing each tile's run with one DataCopyPad; then it
// fills -1 over its own share of [total, N). Core 0 writes the count.
#include "kernel_operator.h"
#include "nonzero_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelNonzero {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR cnt, GM_ADDR workspace, const NonzeroTilingData& t) {
        t_ = t;
        start_ = t.perCore * GetBlockIdx();
        length_ = start_ >= t.total ? 0 : (t.total - start_ < t.perCore ? t.total - start_ : t.perCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, t.total);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)idx, t.total);
        cntGm.SetGlobalBuffer((__gm__ int32_t*)cnt, 1);
        wsGm.SetGlobalBuffer((__gm__ int32_t*)GetUserWorkspace(workspace), t.usedCores * 8);
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.tile * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, t.tile * sizeof(int32_t));
        pipe.InitBuffer(maskBuf, t.tile / 8);
        pipe.InitBuffer(indBuf, t.tile * sizeof(float));
        pipe.InitBuffer(onesBuf, t.tile * sizeof(float));
        pipe.InitBuffer(workBuf, t.tile * sizeof(float));
        pipe.InitBuffer(scBuf, 8 * sizeof(float));
        pipe.InitBuffer(wsBuf, t.usedCores * 8 * sizeof(int32_t));
    }

    __aicore__ inline void Process() {
        Duplicate(onesBuf.Get<float>(), 1.0f, static_cast<int32_t>(t_.tile));
        // Pass 1: count.
        uint32_t mine = 0;
        for (uint32_t off = 0; off < length_; off += t_.tile) {
            const uint32_t n = length_ - off < t_.tile ? length_ - off : t_.tile;
            CopyIn(off, n);
            const uint32_t n64 = Indicators(n);
            LocalTensor<float> sc = scBuf.Get<float>();
            ReduceSum(sc, indBuf.Get<float>(), workBuf.Get<float>(), static_cast<int32_t>(n64));
            SyncPipes<HardEvent::V_S>();
            mine += static_cast<uint32_t>(sc.GetValue(0));
        }
        LocalTensor<int32_t> ws = wsBuf.Get<int32_t>();
        ws.SetValue(0, static_cast<int32_t>(mine));
        SyncPipes<HardEvent::S_MTE3>();
        DataCopyExtParams one{1, sizeof(int32_t), 0, 0, 0};
        DataCopyPad(wsGm[GetBlockIdx() * 8], ws, one);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        // Pass 2: offsets from the other cores' counts, then compact.
        DataCopyExtParams all{1, static_cast<uint32_t>(t_.usedCores * 8 * sizeof(int32_t)), 0, 0, 0};
        DataCopyPadExtParams<int32_t> pad{false, 0, 0, 0};
        DataCopyPad(ws, wsGm, all, pad);
        SyncPipes<HardEvent::MTE2_S>();
        uint32_t offset = 0, total = 0;
        for (uint32_t c = 0; c < t_.usedCores; ++c) {
            const uint32_t v = static_cast<uint32_t>(ws.GetValue(c * 8));
            if (c < GetBlockIdx()) offset += v;
            total += v;
        }
        for (uint32_t off = 0; off < length_; off += t_.tile) {
            const uint32_t n = length_ - off < t_.tile ? length_ - off : t_.tile;
            CopyIn(off, n);
            Indicators(n);
            offset += Compact(off, n, offset);
        }
        FillTail(total);
        if (GetBlockIdx() == 0) {
            ws.SetValue(0, static_cast<int32_t>(total));
            SyncPipes<HardEvent::S_MTE3>();
            DataCopyPad(cntGm, ws, one);
        }
    }

  private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        const uint32_t n8 = (n + 7) / 8 * 8;
        const uint32_t n64 = (n + 63) / 64 * 64;
        if (n64 > n8) {   // Compare works on 256-byte groups: zero the rest of the last group
            Duplicate(x[n8], 0.0f, static_cast<int32_t>(n64 - n8));
            SyncPipes<HardEvent::V_MTE2>();
        }
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(n8 - n), 0.0f};
        DataCopyPad(x, xGm[start_ + off], params, pad);
        inQueue.EnQue(x);
    }

    // ind[i] = (x[i] != 0) ? 1 : 0 over the tile rounded up to 64 elements; returns that length.
    __aicore__ inline uint32_t Indicators(uint32_t n) {
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        LocalTensor<float> ind = indBuf.Get<float>();
        const uint32_t n64 = (n + 63) / 64 * 64;
        SyncPipes<HardEvent::S_V>();   // the scalar unit is done with the previous indicators
        CompareScalar(mask, x, 0.0f, CMPMODE::NE, n64);
        Select(ind, mask, onesBuf.Get<float>(), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n64);
        inQueue.FreeTensor(x);
        return n64;
    }

    __aicore__ inline uint32_t Compact(uint32_t off, uint32_t n, uint32_t offset) {
        LocalTensor<float> ind = indBuf.Get<float>();
        LocalTensor<int32_t> out = outQueue.AllocTensor<int32_t>();
        SyncPipes<HardEvent::V_S>();
        uint32_t k = 0;
        const int32_t base = static_cast<int32_t>(start_ + off);
        for (uint32_t i = 0; i < n; ++i) {
            if (ind.GetValue(i) != 0.0f) out.SetValue(k++, base + static_cast<int32_t>(i));
        }
        SyncPipes<HardEvent::S_MTE3>();
        outQueue.EnQue(out);
        out = outQueue.DeQue<int32_t>();
        if (k > 0) {
            DataCopyExtParams params{1, static_cast<uint32_t>(k * sizeof(int32_t)), 0, 0, 0};
            DataCopyPad(idxGm[offset], out, params);
        }
        outQueue.FreeTensor(out);
        return k;
    }

    // -1 over this core's share of [total, N).
    __aicore__ inline void FillTail(uint32_t total) {
        const uint32_t lo = start_ > total ? start_ : total;
        const uint32_t hi = start_ + length_;
        if (lo >= hi) return;
        LocalTensor<int32_t> fill = outQueue.AllocTensor<int32_t>();
        Duplicate(fill, -1, static_cast<int32_t>(t_.tile));
        outQueue.EnQue(fill);
        fill = outQueue.DeQue<int32_t>();
        for (uint32_t p = lo; p < hi; p += t_.tile) {
            const uint32_t n = hi - p < t_.tile ? hi - p : t_.tile;
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0};
            DataCopyPad(idxGm[p], fill, params);
        }
        outQueue.FreeTensor(fill);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> maskBuf, indBuf, onesBuf, workBuf, scBuf, wsBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> idxGm, cntGm, wsGm;
    NonzeroTilingData t_;
    uint32_t start_ = 0;
    uint32_t length_ = 0;
};

extern "C" __global__ __aicore__ void nonzero_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR count,
                                                     GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(NonzeroTilingData, tilingData, tiling);
    KernelNonzero op;
    op.Init(x, indices, count, workspace, tilingData);
    op.Process();
}
