// concat_lastdim_fp16, expert version: pure DMA. Blocks of tileRows x tileCols of each input go
// GM -> UB (strided DataCopyPad: blockCount rows, GM gap between them) -> GM at the input's
// column offset of the output rows (GM gap = the other columns). Double-buffered through a
// VECIN/VECOUT-bound queue, so reads of one block overlap writes of the previous one.
#include "kernel_operator.h"
#include "concat_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelConcat {
  public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const ConcatTilingData& t) {
        colsA_ = t.colsA;
        colsB_ = t.colsB;
        outCols_ = t.colsA + t.colsB;
        tileCols_ = t.tileCols;
        tileRows_ = t.tileRows;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        aGm.SetGlobalBuffer((__gm__ half*)a + static_cast<uint64_t>(first) * colsA_, static_cast<uint64_t>(rows_) * colsA_);
        bGm.SetGlobalBuffer((__gm__ half*)b + static_cast<uint64_t>(first) * colsB_, static_cast<uint64_t>(rows_) * colsB_);
        yGm.SetGlobalBuffer((__gm__ half*)y + static_cast<uint64_t>(first) * outCols_,
                            static_cast<uint64_t>(rows_) * outCols_);
        pipe.InitBuffer(queue, BUFFER_NUM, tileRows_ * tileCols_ * sizeof(half));
    }

    __aicore__ inline void Process() {
        for (uint32_t r = 0; r < rows_; r += tileRows_) {
            const uint32_t count = rows_ - r < tileRows_ ? rows_ - r : tileRows_;
            CopyRect(aGm, colsA_, 0, r, count);
            CopyRect(bGm, colsB_, colsA_, r, count);
        }
    }

  private:
    // Rows [r, r + count) of src (width cols) -> the same rows of y at column dstCol.
    __aicore__ inline void CopyRect(const GlobalTensor<half>& src, uint32_t cols, uint32_t dstCol, uint32_t r,
                                    uint32_t count) {
        for (uint32_t c0 = 0; c0 < cols; c0 += tileCols_) {
            const uint32_t n = cols - c0 < tileCols_ ? cols - c0 : tileCols_;
            LocalTensor<half> tile = queue.AllocTensor<half>();
            DataCopyExtParams in{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(half)),
                                 static_cast<uint32_t>((cols - n) * sizeof(half)), 0, 0};
            DataCopyPadExtParams<half> pad{false, 0, 0, static_cast<half>(0.0f)};
            DataCopyPad(tile, src[static_cast<uint64_t>(r) * cols + c0], in, pad);
            queue.EnQue(tile);
            tile = queue.DeQue<half>();
            DataCopyExtParams out{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(half)), 0,
                                  static_cast<uint32_t>((outCols_ - n) * sizeof(half)), 0};
            DataCopyPad(yGm[static_cast<uint64_t>(r) * outCols_ + dstCol + c0], tile, out);
            queue.FreeTensor(tile);
        }
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> queue;
    GlobalTensor<half> aGm, bGm, yGm;
    uint32_t rows_ = 0, colsA_ = 0, colsB_ = 0, outCols_ = 0, tileCols_ = 0, tileRows_ = 0;
};

extern "C" __global__ __aicore__ void concat_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ConcatTilingData, tilingData, tiling);
    KernelConcat op;
    op.Init(a, b, y, tilingData);
    op.Process();
}
