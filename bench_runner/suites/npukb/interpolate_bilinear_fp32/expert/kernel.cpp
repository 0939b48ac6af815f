// interpolate_bilinear_fp32, expert version. Separable two-pass blend per work item (a band of
// output rows of one plane): the input rows the band needs are copied in with one DataCopyPad,
// each is interpolated horizontally with two Gathers (per-column source offsets built once per
// core) and a lerp against a per-column weight vector, then every output row is
// (1 - ly) * rowA + ly * rowB (Muls + Axpy). Double-buffered input and output queues.
#include "kernel_operator.h"
#include "interp_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelInterp {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const InterpTilingData& t) {
        t_ = t;
        first_ = t.tilesPerCore * GetBlockIdx();
        const uint32_t last = first_ + t.tilesPerCore < t.totalTiles ? first_ + t.tilesPerCore : t.totalTiles;
        count_ = first_ < last ? last - first_ : 0;
        xGm.SetGlobalBuffer((__gm__ float*)x, t.n * t.c * t.h * t.w);
        yGm.SetGlobalBuffer((__gm__ float*)y, t.n * t.c * t.oh * t.ow);
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.maxInRows * t.wAligned * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, t.rowsPerTile * t.owAligned * sizeof(float));
        pipe.InitBuffer(hBuf, t.maxInRows * t.owAligned * sizeof(float));
        pipe.InitBuffer(gBuf, 2 * t.owAligned * sizeof(float));
        pipe.InitBuffer(tabBuf, 3 * t.owAligned * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (count_ == 0) return;
        BuildTables();
        for (uint32_t i = 0; i < count_; ++i) {
            const uint32_t item = first_ + i;
            const uint32_t plane = item / t_.tilesPerPlane;
            const uint32_t oh0 = (item % t_.tilesPerPlane) * t_.rowsPerTile;
            const uint32_t rows = t_.oh - oh0 < t_.rowsPerTile ? t_.oh - oh0 : t_.rowsPerTile;
            uint32_t hs, unused, he;
            float lam;
            Source(oh0, t_.scaleH, t_.h, hs, unused, lam);
            Source(oh0 + rows - 1, t_.scaleH, t_.h, unused, he, lam);
            CopyIn(plane, hs, he - hs + 1);
            Compute(oh0, rows, hs, he - hs + 1);
            CopyOut(plane, oh0, rows);
        }
    }

  private:
    // PyTorch's source coordinate of output index i: lower/upper neighbour and weight of the upper.
    __aicore__ inline void Source(uint32_t i, float scale, uint32_t inSize, uint32_t& i0, uint32_t& i1,
                                  float& lam) const {
        float src = t_.alignCorners ? static_cast<float>(i) * scale
                                    : (static_cast<float>(i) + 0.5f) * scale - 0.5f;
        if (src < 0.0f) src = 0.0f;
        i0 = static_cast<uint32_t>(src);
        if (i0 > inSize - 1) i0 = inSize - 1;
        i1 = i0 + 1 < inSize ? i0 + 1 : inSize - 1;
        lam = src - static_cast<float>(i0);
    }

    // Per output column j: byte offsets of its two source columns and the weight of the right one.
    __aicore__ inline void BuildTables() {
        LocalTensor<float> tab = tabBuf.Get<float>();
        LocalTensor<int32_t> off0 = tab.ReinterpretCast<int32_t>();
        LocalTensor<int32_t> off1 = tab[t_.owAligned].ReinterpretCast<int32_t>();
        LocalTensor<float> lw = tab[2 * t_.owAligned];
        for (uint32_t j = 0; j < t_.owAligned; ++j) {
            uint32_t j0 = 0, j1 = 0;
            float lam = 0.0f;
            if (j < t_.ow) Source(j, t_.scaleW, t_.w, j0, j1, lam);
            off0.SetValue(j, static_cast<int32_t>(j0 * sizeof(float)));
            off1.SetValue(j, static_cast<int32_t>(j1 * sizeof(float)));
            lw.SetValue(j, lam);
        }
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
    }

    __aicore__ inline void CopyIn(uint32_t plane, uint32_t hs, uint32_t nIn) {
        LocalTensor<float> band = inQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(nIn), static_cast<uint32_t>(t_.w * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(band, xGm[(plane * t_.h + hs) * t_.w], params, pad);
        inQueue.EnQue(band);
    }

    __aicore__ inline void Compute(uint32_t oh0, uint32_t rows, uint32_t hs, uint32_t nIn) {
        LocalTensor<float> band = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> hrow = hBuf.Get<float>();
        LocalTensor<float> g = gBuf.Get<float>();
        LocalTensor<float> tab = tabBuf.Get<float>();
        LocalTensor<uint32_t> off0 = tab.ReinterpretCast<uint32_t>();
        LocalTensor<uint32_t> off1 = tab[t_.owAligned].ReinterpretCast<uint32_t>();
        LocalTensor<float> lw = tab[2 * t_.owAligned];
        const uint32_t owa = t_.owAligned;
        const int32_t n = static_cast<int32_t>(owa);
        LocalTensor<float> g0 = g, g1 = g[owa];
        for (uint32_t r = 0; r < nIn; ++r) {     // horizontal pass
            const uint32_t base = r * t_.wAligned * sizeof(float);
            Gather(g0, band, off0, base, owa);
            Gather(g1, band, off1, base, owa);
            Sub(g1, g1, g0, n);
            Mul(g1, g1, lw, n);
            Add(hrow[r * owa], g0, g1, n);
        }
        for (uint32_t r = 0; r < rows; ++r) {    // vertical pass
            uint32_t a, b;
            float ly;
            Source(oh0 + r, t_.scaleH, t_.h, a, b, ly);
            Muls(yLocal[r * owa], hrow[(a - hs) * owa], 1.0f - ly, n);
            Axpy(yLocal[r * owa], hrow[(b - hs) * owa], ly, n);
        }
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(band);
    }

    __aicore__ inline void CopyOut(uint32_t plane, uint32_t oh0, uint32_t rows) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        const uint32_t srcGap = (t_.owAligned - (t_.ow + 7) / 8 * 8) / 8;
        DataCopyExtParams params{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.ow * sizeof(float)), srcGap, 0, 0};
        DataCopyPad(yGm[(plane * t_.oh + oh0) * t_.ow], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> hBuf, gBuf, tabBuf;
    GlobalTensor<float> xGm, yGm;
    InterpTilingData t_;
    uint32_t first_ = 0;
    uint32_t count_ = 0;
};

extern "C" __global__ __aicore__ void interp_bilinear_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(InterpTilingData, tilingData, tiling);
    KernelInterp op;
    op.Init(x, y, tilingData);
    op.Process();
}
