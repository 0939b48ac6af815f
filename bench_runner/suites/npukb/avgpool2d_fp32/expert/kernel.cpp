// avgpool2d_fp32, expert version. A work item is one band of output rows of one (n, c) plane.
// The input rows the band needs are copied into a UB band whose row stride leaves a zero
// margin (>= padding) after each row and one guard row on top, so every window position of the
// padded image is an in-bounds UB element: left padding of row r falls into row r-1's margin.
// Gather offsets for window position (0, 0) of every output element are built once per core;
// the other kernel x kernel positions reuse them through Gather's base-address argument, and a
// running Add sums the window. The divisor is separable, rowCount(i) * colCount(j): a factor
// tile 1 / (kernel * colCount(j)) is built once, border rows get one extra Muls.
#include "kernel_operator.h"
#include "avgpool2d_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAvgPool2d {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AvgPool2dTilingData& t) {
        t_ = t;
        first_ = t.tilesPerCore * GetBlockIdx();
        const uint32_t last = first_ + t.tilesPerCore < t.totalTiles ? first_ + t.tilesPerCore : t.totalTiles;
        count_ = first_ < last ? last - first_ : 0;
        xGm.SetGlobalBuffer((__gm__ float*)x, t.n * t.c * t.h * t.w);
        yGm.SetGlobalBuffer((__gm__ float*)y, t.n * t.c * t.oh * t.ow);
        tile_ = t.rowsPerTile * t.owAligned;
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.bandRows * t.rowStride * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(gatherBuf, tile_ * sizeof(float));
        pipe.InitBuffer(factorBuf, tile_ * sizeof(float));
        pipe.InitBuffer(offsetBuf, tile_ * sizeof(int32_t));
    }

    __aicore__ inline void Process() {
        if (count_ == 0) return;
        BuildTables();
        for (uint32_t i = 0; i < count_; ++i) {
            const uint32_t item = first_ + i;
            const uint32_t plane = item / t_.tilesPerPlane;
            const uint32_t oh0 = (item % t_.tilesPerPlane) * t_.rowsPerTile;
            const uint32_t rows = t_.oh - oh0 < t_.rowsPerTile ? t_.oh - oh0 : t_.rowsPerTile;
            CopyIn(plane, oh0, rows);
            Compute(oh0, rows);
            CopyOut(plane, oh0, rows);
        }
    }

  private:
    // Real elements of a window starting at padded coordinate start*stride - padding.
    __aicore__ inline uint32_t Covered(uint32_t idx, uint32_t extent) const {
        const int32_t lo = static_cast<int32_t>(idx * t_.stride) - static_cast<int32_t>(t_.padding);
        const int32_t hi = lo + static_cast<int32_t>(t_.kernel);
        const int32_t a = lo > 0 ? lo : 0;
        const int32_t b = hi < static_cast<int32_t>(extent) ? hi : static_cast<int32_t>(extent);
        return static_cast<uint32_t>(b - a);
    }

    // offset[r * owAligned + j] = byte offset of window element (0, 0) of output (r, j) in the band;
    // factor[r * owAligned + j] = 1 / (kernel * colCount(j)) (or 1 / kernel^2 with count_include_pad).
    __aicore__ inline void BuildTables() {
        LocalTensor<int32_t> off = offsetBuf.Get<int32_t>();
        LocalTensor<float> fac = factorBuf.Get<float>();
        const int32_t rs = static_cast<int32_t>(t_.rowStride);
        const float k = static_cast<float>(t_.kernel);
        for (uint32_t j = 0; j < t_.owAligned; ++j) {
            const bool real = j < t_.ow;
            const int32_t col = real ? static_cast<int32_t>(j * t_.stride) - static_cast<int32_t>(t_.padding) : 0;
            off.SetValue(j, static_cast<int32_t>((rs + col) * sizeof(float)));
            const float cc = (t_.countIncludePad || !real) ? k : static_cast<float>(Covered(j, t_.w));
            fac.SetValue(j, 1.0f / (k * cc));
        }
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
        const int32_t rowStep = static_cast<int32_t>(t_.stride * t_.rowStride * sizeof(float));
        const int32_t n = static_cast<int32_t>(t_.owAligned);
        for (uint32_t r = 1; r < t_.rowsPerTile; ++r) {
            Adds(off[r * t_.owAligned], off[(r - 1) * t_.owAligned], rowStep, n);
            Adds(fac[r * t_.owAligned], fac[0], 0.0f, n);
        }
    }

    __aicore__ inline void CopyIn(uint32_t plane, uint32_t oh0, uint32_t rows) {
        LocalTensor<float> band = inQueue.AllocTensor<float>();
        Duplicate(band, 0.0f, static_cast<int32_t>(t_.bandRows * t_.rowStride));
        const auto eventVM = GetTPipePtr()->FetchEventID(HardEvent::V_MTE2);
        SetFlag<HardEvent::V_MTE2>(eventVM);
        WaitFlag<HardEvent::V_MTE2>(eventVM);
        // Input rows [hs, he) of the padded image, clipped to the real rows [h0, h1).
        const int32_t hs = static_cast<int32_t>(oh0 * t_.stride) - static_cast<int32_t>(t_.padding);
        const int32_t he = hs + static_cast<int32_t>((rows - 1) * t_.stride + t_.kernel);
        const int32_t h0 = hs > 0 ? hs : 0;
        const int32_t h1 = he < static_cast<int32_t>(t_.h) ? he : static_cast<int32_t>(t_.h);
        if (h1 > h0) {
            const uint32_t wAligned = (t_.w + 7) / 8 * 8;
            DataCopyExtParams params{static_cast<uint16_t>(h1 - h0), static_cast<uint32_t>(t_.w * sizeof(float)), 0,
                                     static_cast<uint32_t>((t_.rowStride - wAligned) / 8), 0};
            DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(wAligned - t_.w), 0.0f};
            DataCopyPad(band[(h0 - hs + 1) * t_.rowStride], xGm[(plane * t_.h + h0) * t_.w], params, pad);
        }
        inQueue.EnQue(band);
    }

    __aicore__ inline void Compute(uint32_t oh0, uint32_t rows) {
        LocalTensor<float> band = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> g = gatherBuf.Get<float>();
        LocalTensor<float> fac = factorBuf.Get<float>();
        LocalTensor<uint32_t> off = offsetBuf.Get<int32_t>().ReinterpretCast<uint32_t>();
        const uint32_t n = rows * t_.owAligned;
        for (uint32_t kh = 0; kh < t_.kernel; ++kh) {
            for (uint32_t kw = 0; kw < t_.kernel; ++kw) {
                const uint32_t base = (kh * t_.rowStride + kw) * sizeof(float);
                if (kh == 0 && kw == 0) {
                    Gather(yLocal, band, off, base, n);
                } else {
                    Gather(g, band, off, base, n);
                    Add(yLocal, yLocal, g, static_cast<int32_t>(n));
                }
            }
        }
        Mul(yLocal, yLocal, fac, static_cast<int32_t>(n));
        if (!t_.countIncludePad) {
            for (uint32_t r = 0; r < rows; ++r) {
                const uint32_t rc = Covered(oh0 + r, t_.h);
                if (rc != t_.kernel) {
                    Muls(yLocal[r * t_.owAligned], yLocal[r * t_.owAligned],
                         static_cast<float>(t_.kernel) / static_cast<float>(rc), static_cast<int32_t>(t_.owAligned));
                }
            }
        }
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(band);
    }

    __aicore__ inline void CopyOut(uint32_t plane, uint32_t oh0, uint32_t rows) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.ow * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(plane * t_.oh + oh0) * t_.ow], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> gatherBuf, factorBuf, offsetBuf;
    GlobalTensor<float> xGm, yGm;
    AvgPool2dTilingData t_;
    uint32_t first_ = 0;
    uint32_t count_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void avgpool2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AvgPool2dTilingData, tilingData, tiling);
    KernelAvgPool2d op;
    op.Init(x, y, tilingData);
    op.Process();
}
