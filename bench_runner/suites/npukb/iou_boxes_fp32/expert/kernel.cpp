// iou_boxes_fp32, expert version. Each core takes a contiguous range of boxes1 rows (read as
// scalars from UB). boxes2 is processed in column tiles: a tile is copied in as [len, 4] and
// split into four coordinate vectors with Gather (offsets 16*j + 4*c bytes, built by doubling),
// its areas computed once; then every row of boxes1 costs a dozen vector instructions over the
// tile (clip, intersection, union, divide). Output rows are collected in double-buffered tiles
// of rowTile rows and written with one strided DataCopyPad each.
#include "kernel_operator.h"
#include "iou_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelIou {
  public:
    __aicore__ inline void Init(GM_ADDR b1, GM_ADDR b2, GM_ADDR y, const IouTilingData& t) {
        t_ = t;
        row0_ = t.rowsPerCore * GetBlockIdx();
        rows_ = row0_ >= t.n ? 0 : (t.n - row0_ < t.rowsPerCore ? t.n - row0_ : t.rowsPerCore);
        b1Gm.SetGlobalBuffer((__gm__ float*)b1, t.n * 4);
        b2Gm.SetGlobalBuffer((__gm__ float*)b2, t.m * 4);
        yGm.SetGlobalBuffer((__gm__ float*)y, t.n * t.m);
        const uint32_t ct = t.colTile;
        pipe.InitBuffer(aBuf, (t.rowsPerCore * 4 + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(rawBuf, ct * 4 * sizeof(float));
        pipe.InitBuffer(soaBuf, ct * 5 * sizeof(float));   // x1, y1, x2, y2, area
        pipe.InitBuffer(offBuf, ct * sizeof(int32_t));
        pipe.InitBuffer(tmpBuf, ct * 3 * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, t.rowTile * ct * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) return;
        LoadRows();
        BuildOffsets();
        for (uint32_t c0 = 0; c0 < t_.m; c0 += t_.colTile) {
            const uint32_t len = t_.m - c0 < t_.colTile ? t_.m - c0 : t_.colTile;
            LoadColumns(c0, len);
            for (uint32_t r0 = 0; r0 < rows_; r0 += t_.rowTile) {
                const uint32_t nr = rows_ - r0 < t_.rowTile ? rows_ - r0 : t_.rowTile;
                Compute(r0, nr, len);
                CopyOut(r0, nr, c0, len);
            }
        }
    }

  private:
    __aicore__ inline void LoadRows() {
        LocalTensor<float> a = aBuf.Get<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(rows_ * 4 * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(a, b1Gm[row0_ * 4], params, pad);
        const auto eventMS = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S);
        SetFlag<HardEvent::MTE2_S>(eventMS);
        WaitFlag<HardEvent::MTE2_S>(eventMS);
    }

    // off[j] = 16 * j bytes: 8 scalar writes, then doubling with vector Adds.
    __aicore__ inline void BuildOffsets() {
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        for (int32_t j = 0; j < 8; ++j) off.SetValue(j, 16 * j);
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
        for (uint32_t done = 8; done < t_.colTile; done *= 2) {
            const uint32_t n = t_.colTile - done < done ? t_.colTile - done : done;
            Adds(off[done], off, static_cast<int32_t>(16 * done), static_cast<int32_t>(n));
        }
        // The tail of a partial column tile is never copied in: give it harmless zeros.
        Duplicate(rawBuf.Get<float>(), 0.0f, static_cast<int32_t>(t_.colTile * 4));
    }

    __aicore__ inline void LoadColumns(uint32_t c0, uint32_t len) {
        LocalTensor<float> raw = rawBuf.Get<float>();
        LocalTensor<float> soa = soaBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<int32_t>().ReinterpretCast<uint32_t>();
        const uint32_t ct = t_.colTile;
        const uint32_t n = (len + 7) / 8 * 8;
        // The previous tile's Gathers must be done before MTE2 overwrites raw.
        const auto eventVM = GetTPipePtr()->FetchEventID(HardEvent::V_MTE2);
        SetFlag<HardEvent::V_MTE2>(eventVM);
        WaitFlag<HardEvent::V_MTE2>(eventVM);
        DataCopyExtParams params{1, static_cast<uint32_t>(len * 4 * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(raw, b2Gm[c0 * 4], params, pad);
        const auto eventMV = GetTPipePtr()->FetchEventID(HardEvent::MTE2_V);
        SetFlag<HardEvent::MTE2_V>(eventMV);
        WaitFlag<HardEvent::MTE2_V>(eventMV);
        for (uint32_t c = 0; c < 4; ++c) {
            Gather(soa[c * ct], raw, off, c * sizeof(float), n);
        }
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        Sub(soa[4 * ct], soa[2 * ct], soa[0 * ct], static_cast<int32_t>(n));
        Sub(tmp, soa[3 * ct], soa[1 * ct], static_cast<int32_t>(n));
        Mul(soa[4 * ct], soa[4 * ct], tmp, static_cast<int32_t>(n));
    }

    __aicore__ inline void Compute(uint32_t r0, uint32_t nr, uint32_t len) {
        LocalTensor<float> a = aBuf.Get<float>();
        LocalTensor<float> soa = soaBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        const uint32_t ct = t_.colTile;
        const int32_t n = static_cast<int32_t>((len + 7) / 8 * 8);
        LocalTensor<float> x1 = soa, y1 = soa[ct], x2 = soa[2 * ct], y2 = soa[3 * ct], area = soa[4 * ct];
        LocalTensor<float> lo = tmp, hi = tmp[ct], w = tmp[2 * ct];
        for (uint32_t r = 0; r < nr; ++r) {
            const uint32_t i = (r0 + r) * 4;
            const float ax1 = a.GetValue(i), ay1 = a.GetValue(i + 1), ax2 = a.GetValue(i + 2), ay2 = a.GetValue(i + 3);
            const float areaA = (ax2 - ax1) * (ay2 - ay1);
            LocalTensor<float> out = yLocal[r * ct];
            Maxs(lo, x1, ax1, n);
            Mins(hi, x2, ax2, n);
            Sub(w, hi, lo, n);
            Maxs(w, w, 0.0f, n);
            Maxs(lo, y1, ay1, n);
            Mins(hi, y2, ay2, n);
            Sub(hi, hi, lo, n);
            Maxs(hi, hi, 0.0f, n);
            Mul(w, w, hi, n);              // intersection
            Adds(lo, area, areaA, n);
            Sub(lo, lo, w, n);             // union
            Div(out, w, lo, n);
        }
        outQueue.EnQue<float>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr, uint32_t c0, uint32_t len) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        const uint32_t srcGap = (t_.colTile - (len + 7) / 8 * 8) / 8;   // in 32-byte blocks
        DataCopyExtParams params{static_cast<uint16_t>(nr), static_cast<uint32_t>(len * sizeof(float)), srcGap,
                                 static_cast<uint32_t>((t_.m - len) * sizeof(float)), 0};
        DataCopyPad(yGm[(row0_ + r0) * t_.m + c0], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> aBuf, rawBuf, soaBuf, offBuf, tmpBuf;
    GlobalTensor<float> b1Gm, b2Gm, yGm;
    IouTilingData t_;
    uint32_t row0_ = 0;
    uint32_t rows_ = 0;
};

extern "C" __global__ __aicore__ void iou_custom(GM_ADDR boxes1, GM_ADDR boxes2, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(IouTilingData, tilingData, tiling);
    KernelIou op;
    op.Init(boxes1, boxes2, y, tilingData);
    op.Process();
}
