// split_lastdim_fp32, expert version: pure DMA. Blocks of tileRows x tileCols are read from
// the input at the output's column offset (strided DataCopyPad: GM gap = the other columns) and
// written to the dense output rows. Double-buffered through a VECIN/VECOUT-bound queue.
#include "kernel_operator.h"
#include "split_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSplit {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y1, GM_ADDR y2, const SplitTilingData& t) {
        colsA_ = t.colsA;
        colsB_ = t.colsB;
        inCols_ = t.colsA + t.colsB;
        tileCols_ = t.tileCols;
        tileRows_ = t.tileRows;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first) * inCols_,
                            static_cast<uint64_t>(rows_) * inCols_);
        y1Gm.SetGlobalBuffer((__gm__ float*)y1 + static_cast<uint64_t>(first) * colsA_,
                             static_cast<uint64_t>(rows_) * colsA_);
        y2Gm.SetGlobalBuffer((__gm__ float*)y2 + static_cast<uint64_t>(first) * colsB_,
                             static_cast<uint64_t>(rows_) * colsB_);
        pipe.InitBuffer(queue, BUFFER_NUM, tileRows_ * tileCols_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t r = 0; r < rows_; r += tileRows_) {
            const uint32_t count = rows_ - r < tileRows_ ? rows_ - r : tileRows_;
            CopyRect(y1Gm, colsA_, 0, r, count);
            CopyRect(y2Gm, colsB_, colsA_, r, count);
        }
    }

  private:
    // Rows [r, r + count) of x, columns [srcCol, srcCol + cols) -> the same rows of dst (width cols).
    __aicore__ inline void CopyRect(const GlobalTensor<float>& dst, uint32_t cols, uint32_t srcCol, uint32_t r,
                                    uint32_t count) {
        for (uint32_t c0 = 0; c0 < cols; c0 += tileCols_) {
            const uint32_t n = cols - c0 < tileCols_ ? cols - c0 : tileCols_;
            LocalTensor<float> tile = queue.AllocTensor<float>();
            DataCopyExtParams in{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(float)),
                                 static_cast<uint32_t>((inCols_ - n) * sizeof(float)), 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(tile, xGm[static_cast<uint64_t>(r) * inCols_ + srcCol + c0], in, pad);
            queue.EnQue(tile);
            tile = queue.DeQue<float>();
            DataCopyExtParams out{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(float)), 0,
                                  static_cast<uint32_t>((cols - n) * sizeof(float)), 0};
            DataCopyPad(dst[static_cast<uint64_t>(r) * cols + c0], tile, out);
            queue.FreeTensor(tile);
        }
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> queue;
    GlobalTensor<float> xGm, y1Gm, y2Gm;
    uint32_t rows_ = 0, colsA_ = 0, colsB_ = 0, inCols_ = 0, tileCols_ = 0, tileRows_ = 0;
};

extern "C" __global__ __aicore__ void split_custom(GM_ADDR x, GM_ADDR y1, GM_ADDR y2, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SplitTilingData, tilingData, tiling);
    KernelSplit op;
    op.Init(x, y1, y2, tilingData);
    op.Process();
}
