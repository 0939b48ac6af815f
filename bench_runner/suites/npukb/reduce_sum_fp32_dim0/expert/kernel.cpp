// reduce_sum_fp32_dim0, expert version: each core owns a column range; for each column tile a
// float accumulator in UB gets every row added with a vector Add. Rows arrive tileRows at a time
// through one strided DataCopyPad (blockCount = rows, source gap = the rest of the GM row, UB rows
// padded to 32 bytes) on a double-buffered queue.
#include "kernel_operator.h"
#include "reduce_sum_dim0_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelReduceSumDim0 {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceSumDim0TilingData& t) {
        rows_ = t.rows;
        cols_ = t.cols;
        tileCols_ = t.tileCols;
        tileRows_ = t.tileRows;
        first_ = t.colsPerCore * GetBlockIdx();
        myCols_ = first_ >= t.cols ? 0 : (t.cols - first_ < t.colsPerCore ? t.cols - first_ : t.colsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(rows_) * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + first_, myCols_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileRows_ * tileCols_ * sizeof(float));
        pipe.InitBuffer(outQueue, 1, tileCols_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t c = 0; c < myCols_; c += tileCols_) {
            const uint32_t n = myCols_ - c < tileCols_ ? myCols_ - c : tileCols_;
            const uint32_t stride = (n + 7) / 8 * 8;   // UB row stride of a copied tile
            LocalTensor<float> acc = outQueue.AllocTensor<float>();
            Duplicate(acc, 0.0f, static_cast<int32_t>(stride));
            for (uint32_t r = 0; r < rows_; r += tileRows_) {
                const uint32_t rt = rows_ - r < tileRows_ ? rows_ - r : tileRows_;
                CopyIn(r, c, rt, n);
                LocalTensor<float> xLocal = inQueue.DeQue<float>();
                for (uint32_t k = 0; k < rt; ++k) {
                    Add(acc, acc, xLocal[k * stride], static_cast<int32_t>(n));
                }
                inQueue.FreeTensor(xLocal);
            }
            outQueue.EnQue(acc);
            acc = outQueue.DeQue<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[c], acc, params);
            outQueue.FreeTensor(acc);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t c, uint32_t rt, uint32_t n) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(rt), static_cast<uint32_t>(n * sizeof(float)),
                                 static_cast<uint32_t>((cols_ - n) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * cols_ + first_ + c], params, pad);
        inQueue.EnQue(xLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t tileCols_ = 0;
    uint32_t tileRows_ = 1;
    uint32_t first_ = 0;
    uint32_t myCols_ = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_dim0_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ReduceSumDim0TilingData, tilingData, tiling);
    KernelReduceSumDim0 op;
    op.Init(x, y, tilingData);
    op.Process();
}
