// adaptive_maxpool2d_fp16, expert version. A work item is one band of output rows of one
// (n, c) plane. For every output row i the input rows of its window [hs, he) are streamed
// through a double-buffered queue in chunks and folded with Max into one row of column maxima
// (the window's first row is copied in by Max(row, row)). The column windows have different
// lengths, so an offset table holds, for window position k and output column j, the byte offset
// of column colStart(j) + k, or of colStart(j) again when k is past the window (repeating an
// element does not change a maximum): kwMax Gathers + Maxes then reduce every column window.
#include "kernel_operator.h"
#include "adaptive_maxpool2d_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAdaptiveMaxPool2d {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AdaptiveMaxPool2dTilingData& t) {
        t_ = t;
        first_ = t.tilesPerCore * GetBlockIdx();
        const uint32_t last = first_ + t.tilesPerCore < t.totalTiles ? first_ + t.tilesPerCore : t.totalTiles;
        count_ = first_ < last ? last - first_ : 0;
        xGm.SetGlobalBuffer((__gm__ half*)x, t.n * t.c * t.h * t.w);
        yGm.SetGlobalBuffer((__gm__ half*)y, t.n * t.c * t.oh * t.ow);
        tile_ = t.rowsPerTile * t.owAligned;
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.chunkRows * t.rowStride * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(half));
        pipe.InitBuffer(maxBuf, t.rowsPerTile * t.rowStride * sizeof(half));
        pipe.InitBuffer(gatherBuf, t.owAligned * sizeof(half));
        pipe.InitBuffer(offsetBuf, t.kwMax * t.owAligned * sizeof(uint32_t));
    }

    __aicore__ inline void Process() {
        if (count_ == 0) return;
        BuildTable();
        for (uint32_t it = 0; it < count_; ++it) {
            const uint32_t item = first_ + it;
            const uint32_t plane = item / t_.tilesPerPlane;
            const uint32_t oh0 = (item % t_.tilesPerPlane) * t_.rowsPerTile;
            const uint32_t rows = t_.oh - oh0 < t_.rowsPerTile ? t_.oh - oh0 : t_.rowsPerTile;
            LocalTensor<half> maxima = maxBuf.Get<half>();
            for (uint32_t r = 0; r < rows; ++r) {
                const uint32_t i = oh0 + r;
                const uint32_t hs = i * t_.h / t_.oh;
                const uint32_t he = ((i + 1) * t_.h + t_.oh - 1) / t_.oh;
                for (uint32_t h0 = hs; h0 < he; h0 += t_.chunkRows) {
                    const uint32_t n = he - h0 < t_.chunkRows ? he - h0 : t_.chunkRows;
                    CopyIn(plane, h0, n);
                    FoldRows(maxima[r * t_.rowStride], n, h0 == hs);
                }
            }
            Compute(rows);
            CopyOut(plane, oh0, rows);
        }
    }

  private:
    __aicore__ inline void BuildTable() {
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < t_.owAligned; ++j) {
            const bool real = j < t_.ow;
            const uint32_t ws = real ? j * t_.w / t_.ow : 0;
            const uint32_t we = real ? ((j + 1) * t_.w + t_.ow - 1) / t_.ow : 1;
            for (uint32_t k = 0; k < t_.kwMax; ++k) {
                const uint32_t col = ws + k < we ? ws + k : ws;
                off.SetValue(k * t_.owAligned + j, col * static_cast<uint32_t>(sizeof(half)));
            }
        }
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
    }

    __aicore__ inline void CopyIn(uint32_t plane, uint32_t h0, uint32_t n) {
        LocalTensor<half> chunk = inQueue.AllocTensor<half>();
        DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(t_.w * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{true, 0, static_cast<uint8_t>(t_.rowStride - t_.w), static_cast<half>(0)};
        DataCopyPad(chunk, xGm[(plane * t_.h + h0) * t_.w], params, pad);
        inQueue.EnQue(chunk);
    }

    // acc = max(acc, every row of the chunk); the first chunk of a window starts from its row 0.
    __aicore__ inline void FoldRows(const LocalTensor<half>& acc, uint32_t n, bool first) {
        LocalTensor<half> chunk = inQueue.DeQue<half>();
        const int32_t len = static_cast<int32_t>(t_.rowStride);
        if (first) Max(acc, chunk, chunk, len);
        for (uint32_t q = first ? 1 : 0; q < n; ++q) {
            Max(acc, acc, chunk[q * t_.rowStride], len);
        }
        inQueue.FreeTensor(chunk);
    }

    __aicore__ inline void Compute(uint32_t rows) {
        LocalTensor<half> maxima = maxBuf.Get<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        LocalTensor<half> g = gatherBuf.Get<half>();
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        const int32_t n = static_cast<int32_t>(t_.owAligned);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<half> yr = yLocal[r * t_.owAligned];
            const uint32_t base = r * t_.rowStride * sizeof(half);
            Gather(yr, maxima, off, base, t_.owAligned);
            for (uint32_t k = 1; k < t_.kwMax; ++k) {
                Gather(g, maxima, off[k * t_.owAligned], base, t_.owAligned);
                Max(yr, yr, g, n);
            }
        }
        outQueue.EnQue<half>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t plane, uint32_t oh0, uint32_t rows) {
        LocalTensor<half> yLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.ow * sizeof(half)), 0, 0, 0};
        DataCopyPad(yGm[(plane * t_.oh + oh0) * t_.ow], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> maxBuf, gatherBuf, offsetBuf;
    GlobalTensor<half> xGm, yGm;
    AdaptiveMaxPool2dTilingData t_;
    uint32_t first_ = 0;
    uint32_t count_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void adaptive_maxpool2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AdaptiveMaxPool2dTilingData, tilingData, tiling);
    KernelAdaptiveMaxPool2d op;
    op.Init(x, y, tilingData);
    op.Process();
}
