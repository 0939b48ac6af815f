// adaptive_avgpool2d_fp32, expert version. A work item is one band of output rows of one
// (n, c) plane. For every output row i the input rows of its window [hs, he) are streamed
// through a double-buffered queue in chunks and added into one row of column sums (rowStride
// floats; the slots from W on stay zero). The column windows have different lengths, so an
// offset table holds, for window position k and output column j, the byte offset of column
// colStart(j) + k, or of the zero slot W when k is past the window: kwMax Gathers + Adds then
// sum every column window at once. A factor table 1 / colCount(j) and one Muls by
// 1 / rowCount(i) turn the sums into means.
#include "kernel_operator.h"
#include "adaptive_avgpool2d_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAdaptiveAvgPool2d {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AdaptiveAvgPool2dTilingData& t) {
        t_ = t;
        first_ = t.tilesPerCore * GetBlockIdx();
        const uint32_t last = first_ + t.tilesPerCore < t.totalTiles ? first_ + t.tilesPerCore : t.totalTiles;
        count_ = first_ < last ? last - first_ : 0;
        xGm.SetGlobalBuffer((__gm__ float*)x, t.n * t.c * t.h * t.w);
        yGm.SetGlobalBuffer((__gm__ float*)y, t.n * t.c * t.oh * t.ow);
        wAligned_ = (t.w + 7) / 8 * 8;
        tile_ = t.rowsPerTile * t.owAligned;
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.chunkRows * t.rowStride * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(sumBuf, t.rowsPerTile * t.rowStride * sizeof(float));
        pipe.InitBuffer(gatherBuf, t.owAligned * sizeof(float));
        pipe.InitBuffer(factorBuf, t.owAligned * sizeof(float));
        pipe.InitBuffer(offsetBuf, t.kwMax * t.owAligned * sizeof(uint32_t));
    }

    __aicore__ inline void Process() {
        if (count_ == 0) return;
        BuildTables();
        for (uint32_t it = 0; it < count_; ++it) {
            const uint32_t item = first_ + it;
            const uint32_t plane = item / t_.tilesPerPlane;
            const uint32_t oh0 = (item % t_.tilesPerPlane) * t_.rowsPerTile;
            const uint32_t rows = t_.oh - oh0 < t_.rowsPerTile ? t_.oh - oh0 : t_.rowsPerTile;
            LocalTensor<float> sums = sumBuf.Get<float>();
            Duplicate(sums, 0.0f, static_cast<int32_t>(rows * t_.rowStride));
            for (uint32_t r = 0; r < rows; ++r) {
                const uint32_t i = oh0 + r;
                const uint32_t hs = i * t_.h / t_.oh;
                const uint32_t he = ((i + 1) * t_.h + t_.oh - 1) / t_.oh;
                for (uint32_t h0 = hs; h0 < he; h0 += t_.chunkRows) {
                    const uint32_t n = he - h0 < t_.chunkRows ? he - h0 : t_.chunkRows;
                    CopyIn(plane, h0, n);
                    AccumulateRows(sums[r * t_.rowStride], n);
                }
            }
            Compute(oh0, rows);
            CopyOut(plane, oh0, rows);
        }
    }

  private:
    __aicore__ inline void BuildTables() {
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        LocalTensor<float> fac = factorBuf.Get<float>();
        for (uint32_t j = 0; j < t_.owAligned; ++j) {
            const bool real = j < t_.ow;
            const uint32_t ws = real ? j * t_.w / t_.ow : 0;
            const uint32_t we = real ? ((j + 1) * t_.w + t_.ow - 1) / t_.ow : 0;
            for (uint32_t k = 0; k < t_.kwMax; ++k) {
                const uint32_t col = ws + k < we ? ws + k : t_.w;   // t_.w: the zero slot
                off.SetValue(k * t_.owAligned + j, col * static_cast<uint32_t>(sizeof(float)));
            }
            fac.SetValue(j, real ? 1.0f / static_cast<float>(we - ws) : 0.0f);
        }
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
    }

    __aicore__ inline void CopyIn(uint32_t plane, uint32_t h0, uint32_t n) {
        LocalTensor<float> chunk = inQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(t_.w * sizeof(float)), 0,
                                 static_cast<uint32_t>((t_.rowStride - wAligned_) / 8), 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(wAligned_ - t_.w), 0.0f};
        DataCopyPad(chunk, xGm[(plane * t_.h + h0) * t_.w], params, pad);
        inQueue.EnQue(chunk);
    }

    // sum += every row of the chunk (W columns plus zero padding up to wAligned).
    __aicore__ inline void AccumulateRows(const LocalTensor<float>& sum, uint32_t n) {
        LocalTensor<float> chunk = inQueue.DeQue<float>();
        for (uint32_t q = 0; q < n; ++q) {
            Add(sum, sum, chunk[q * t_.rowStride], static_cast<int32_t>(wAligned_));
        }
        inQueue.FreeTensor(chunk);
    }

    __aicore__ inline void Compute(uint32_t oh0, uint32_t rows) {
        LocalTensor<float> sums = sumBuf.Get<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> g = gatherBuf.Get<float>();
        LocalTensor<float> fac = factorBuf.Get<float>();
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        const int32_t n = static_cast<int32_t>(t_.owAligned);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> yr = yLocal[r * t_.owAligned];
            const uint32_t base = r * t_.rowStride * sizeof(float);
            Gather(yr, sums, off, base, t_.owAligned);
            for (uint32_t k = 1; k < t_.kwMax; ++k) {
                Gather(g, sums, off[k * t_.owAligned], base, t_.owAligned);
                Add(yr, yr, g, n);
            }
            const uint32_t i = oh0 + r;
            const uint32_t rc = ((i + 1) * t_.h + t_.oh - 1) / t_.oh - i * t_.h / t_.oh;
            Mul(yr, yr, fac, n);
            Muls(yr, yr, 1.0f / static_cast<float>(rc), n);
        }
        outQueue.EnQue<float>(yLocal);
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
    TBuf<QuePosition::VECCALC> sumBuf, gatherBuf, factorBuf, offsetBuf;
    GlobalTensor<float> xGm, yGm;
    AdaptiveAvgPool2dTilingData t_;
    uint32_t first_ = 0;
    uint32_t count_ = 0;
    uint32_t tile_ = 0;
    uint32_t wAligned_ = 0;
};

extern "C" __global__ __aicore__ void adaptive_avgpool2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AdaptiveAvgPool2dTilingData, tilingData, tiling);
    KernelAdaptiveAvgPool2d op;
    op.Init(x, y, tilingData);
    op.Process();
}
