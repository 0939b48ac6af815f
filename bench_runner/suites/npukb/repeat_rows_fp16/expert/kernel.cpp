// repeat_rows_fp16, expert version: per column chunk, the chunk of x is read once, replicated
// tileRows times in the Unified Buffer by doubling UB->UB copies (rows padded to 32 bytes), and
// each group of rows leaves in one strided DataCopyPad (blockCount = rows, GM gap = N - n).
#include "kernel_operator.h"
#include "repeat_rows_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelRepeatRows {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RepeatRowsTilingData& t) {
        cols_ = t.cols;
        tileCols_ = t.tileCols;
        tileRows_ = t.tileRows;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x, cols_);
        yGm.SetGlobalBuffer((__gm__ half*)y + static_cast<uint64_t>(first) * cols_,
                            static_cast<uint64_t>(rows_) * cols_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileCols_ * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileRows_ * tileCols_ * sizeof(half));
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) return;
        for (uint32_t c0 = 0; c0 < cols_; c0 += tileCols_) {
            const uint32_t n = cols_ - c0 < tileCols_ ? cols_ - c0 : tileCols_;
            CopyIn(c0, n);
            Replicate(n);
            CopyOut(c0, n);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t c0, uint32_t n) {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, static_cast<half>(0.0f)};
        DataCopyPad(xLocal, xGm[c0], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Replicate(uint32_t n) {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<half> tile = outQueue.AllocTensor<half>();
        const uint32_t stride = (n + 15) / 16 * 16;  // one UB row, 32-byte padded
        const uint32_t reps = rows_ < tileRows_ ? rows_ : tileRows_;
        DataCopy(tile, xLocal, stride);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t have = 1; have < reps; have *= 2) {
            const uint32_t more = reps - have < have ? reps - have : have;
            DataCopy(tile[have * stride], tile, more * stride);
            PipeBarrier<PIPE_ALL>();
        }
        outQueue.EnQue<half>(tile);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t c0, uint32_t n) {
        LocalTensor<half> tile = outQueue.DeQue<half>();
        for (uint32_t r = 0; r < rows_; r += tileRows_) {
            const uint32_t count = rows_ - r < tileRows_ ? rows_ - r : tileRows_;
            DataCopyExtParams params{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(half)), 0,
                                     static_cast<uint32_t>((cols_ - n) * sizeof(half)), 0};
            DataCopyPad(yGm[static_cast<uint64_t>(r) * cols_ + c0], tile, params);
        }
        outQueue.FreeTensor(tile);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm, yGm;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t tileCols_ = 0;
    uint32_t tileRows_ = 0;
};

extern "C" __global__ __aicore__ void repeat_rows_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RepeatRowsTilingData, tilingData, tiling);
    KernelRepeatRows op;
    op.Init(x, y, tilingData);
    op.Process();
}
