// pad_2d_fp32, expert version: pure DMA. A UB buffer filled with `value` once (Duplicate) feeds
// strided DataCopyPad writes of every border rectangle (many rows per copy, GM gap between
// rows); the input rows go GM -> UB -> GM in tileRows x tileCols blocks, landing at column
// pad_left of their output rows. Double-buffered through a VECIN/VECOUT-bound queue.
#include "kernel_operator.h"
#include "pad_2d_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelPad2d {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Pad2dTilingData& t) {
        inRows_ = t.inRows;
        inCols_ = t.inCols;
        outCols_ = t.outCols;
        padTop_ = t.padTop;
        padLeft_ = t.padLeft;
        tileCols_ = t.tileCols;
        tileRows_ = t.tileRows;
        fillCols_ = t.fillCols;
        value_ = t.value;
        first_ = t.rowsPerCore * GetBlockIdx();
        rows_ = first_ >= t.outRows ? 0 : (t.outRows - first_ < t.rowsPerCore ? t.outRows - first_ : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(inRows_) * inCols_);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(t.outRows) * outCols_);
        pipe.InitBuffer(queue, BUFFER_NUM, tileRows_ * tileCols_ * sizeof(float));
        pipe.InitBuffer(fillBuf, fillCols_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) return;
        LocalTensor<float> fill = fillBuf.Get<float>();
        Duplicate(fill, value_, static_cast<int32_t>(fillCols_));
        const auto eventVM = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
        SetFlag<HardEvent::V_MTE3>(eventVM);
        WaitFlag<HardEvent::V_MTE3>(eventVM);

        const uint32_t end = first_ + rows_;
        const uint32_t midBegin = padTop_;
        const uint32_t midEnd = padTop_ + inRows_;
        // Top and bottom border rows: whole output rows of `value`.
        FillRect(first_, Min(end, midBegin), 0, outCols_);
        FillRect(Max(first_, midEnd), end, 0, outCols_);
        // Rows that hold input data.
        const uint32_t m0 = Max(first_, midBegin);
        const uint32_t m1 = Min(end, midEnd);
        if (m0 < m1) {
            FillRect(m0, m1, 0, padLeft_);
            FillRect(m0, m1, padLeft_ + inCols_, outCols_);
            for (uint32_t o = m0; o < m1; o += tileRows_) {
                const uint32_t count = Min(m1 - o, tileRows_);
                for (uint32_t c0 = 0; c0 < inCols_; c0 += tileCols_) {
                    const uint32_t n = Min(inCols_ - c0, tileCols_);
                    CopyIn(o - padTop_, c0, count, n);
                    CopyOut(o, c0, count, n);
                }
            }
        }
    }

  private:
    __aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }
    __aicore__ inline uint32_t Max(uint32_t a, uint32_t b) { return a > b ? a : b; }

    // Output rows [r0, r1), columns [c0, c1) := value. The fill buffer is one flat run of
    // `value`, so a DataCopyPad of `count` blocks (each reading the next 32-byte-padded slice of
    // it) writes `count` rows at once, with a GM gap of outCols - n between them.
    __aicore__ inline void FillRect(uint32_t r0, uint32_t r1, uint32_t c0, uint32_t c1) {
        if (r0 >= r1 || c0 >= c1) return;
        LocalTensor<float> fill = fillBuf.Get<float>();
        for (uint32_t c = c0; c < c1; c += fillCols_) {
            const uint32_t n = Min(c1 - c, fillCols_);
            const uint32_t perCopy = Min(fillCols_ / ((n + 7) / 8 * 8), 4095);
            for (uint32_t r = r0; r < r1; r += perCopy) {
                const uint32_t count = Min(r1 - r, perCopy);
                DataCopyExtParams params{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(float)), 0,
                                         static_cast<uint32_t>((outCols_ - n) * sizeof(float)), 0};
                DataCopyPad(yGm[static_cast<uint64_t>(r) * outCols_ + c], fill, params);
            }
        }
    }

    __aicore__ inline void CopyIn(uint32_t inRow, uint32_t c0, uint32_t count, uint32_t n) {
        LocalTensor<float> tile = queue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(float)),
                                 static_cast<uint32_t>((inCols_ - n) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(tile, xGm[static_cast<uint64_t>(inRow) * inCols_ + c0], params, pad);
        queue.EnQue(tile);
    }

    __aicore__ inline void CopyOut(uint32_t o, uint32_t c0, uint32_t count, uint32_t n) {
        LocalTensor<float> tile = queue.DeQue<float>();
        DataCopyExtParams params{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(float)), 0,
                                 static_cast<uint32_t>((outCols_ - n) * sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(o) * outCols_ + padLeft_ + c0], tile, params);
        queue.FreeTensor(tile);
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> queue;
    TBuf<QuePosition::VECCALC> fillBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t inRows_ = 0, inCols_ = 0, outCols_ = 0, padTop_ = 0, padLeft_ = 0;
    uint32_t tileCols_ = 0, tileRows_ = 0, fillCols_ = 0, first_ = 0, rows_ = 0;
    float value_ = 0.0f;
};

extern "C" __global__ __aicore__ void pad_2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(Pad2dTilingData, tilingData, tiling);
    KernelPad2d op;
    op.Init(x, y, tilingData);
    op.Process();
}
