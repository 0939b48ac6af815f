// histc_fp32, expert version. Each core streams its share of x through double-buffered tiles;
// the bin position t = (x - min) * bins is computed with vector instructions, and the scatter
// into a local UB histogram is a scalar loop (a data-dependent read-modify-write per element:
// keep x when 0 <= t <= (max - min) * bins, bin = floor(t / (max - min)), the top edge goes to
// the last bin). Core 0 zeroes y, every core waits at SyncAll, then each adds its partial
// histogram into y with an atomic-add DataCopyPad.
#include "kernel_operator.h"
#include "histc_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelHistc {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const HistcTilingData& t) {
        t_ = t;
        const uint32_t start = t.perCore * GetBlockIdx();
        length_ = start >= t.total ? 0 : (t.total - start < t.perCore ? t.total - start : t.perCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
        yGm.SetGlobalBuffer((__gm__ float*)y, t.bins);
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.tile * sizeof(float));
        pipe.InitBuffer(posBuf, t.tile * sizeof(float));
        pipe.InitBuffer(histBuf, t.binsAligned * sizeof(float));
    }

    __aicore__ inline void Process() {
        LocalTensor<float> hist = histBuf.Get<float>();
        Duplicate(hist, 0.0f, static_cast<int32_t>(t_.binsAligned));
        if (GetBlockIdx() == 0) {   // y starts as garbage: zero it before anyone adds into it
            const auto eVM = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
            SetFlag<HardEvent::V_MTE3>(eVM);
            WaitFlag<HardEvent::V_MTE3>(eVM);
            DataCopyExtParams p{1, static_cast<uint32_t>(t_.bins * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm, hist, p);
        }
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        const auto eVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eVS);
        WaitFlag<HardEvent::V_S>(eVS);
        for (uint32_t off = 0; off < length_; off += t_.tile) {
            const uint32_t n = length_ - off < t_.tile ? length_ - off : t_.tile;
            CopyIn(off, n);
            Count(n);
        }
        const auto eSM = GetTPipePtr()->FetchEventID(HardEvent::S_MTE3);
        SetFlag<HardEvent::S_MTE3>(eSM);
        WaitFlag<HardEvent::S_MTE3>(eSM);
        SetAtomicAdd<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(t_.bins * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm, hist, p);
        SetAtomicNone();
    }

  private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, xGm[off], params, pad);
        inQueue.EnQue(x);
    }

    __aicore__ inline void Count(uint32_t n) {
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<float> pos = posBuf.Get<float>();
        LocalTensor<float> hist = histBuf.Get<float>();
        const float bins = static_cast<float>(t_.bins);
        const float range = t_.maxValue - t_.minValue;
        const float top = range * bins;   // (max - min) * bins, rounded as the vector path rounds x = max
        const auto eSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eSV);     // the previous tile's scalar loop is done with pos
        WaitFlag<HardEvent::S_V>(eSV);
        Adds(pos, x, -t_.minValue, static_cast<int32_t>(n));
        Muls(pos, pos, bins, static_cast<int32_t>(n));
        inQueue.FreeTensor(x);
        const auto eVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eVS);
        WaitFlag<HardEvent::V_S>(eVS);
        for (uint32_t i = 0; i < n; ++i) {
            const float v = pos.GetValue(i);
            if (!(v >= 0.0f && v <= top)) continue;
            uint32_t b = static_cast<uint32_t>(v / range);
            if (b >= t_.bins) b = t_.bins - 1;
            hist.SetValue(b, hist.GetValue(b) + 1.0f);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TBuf<QuePosition::VECCALC> posBuf, histBuf;
    GlobalTensor<float> xGm, yGm;
    HistcTilingData t_;
    uint32_t length_ = 0;
};

extern "C" __global__ __aicore__ void histc_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(HistcTilingData, tilingData, tiling);
    KernelHistc op;
    op.Init(x, y, tilingData);
    op.Process();
}
