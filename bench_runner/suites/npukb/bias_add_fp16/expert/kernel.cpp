// bias_add_fp16, expert version: b is loaded once per core; tiles of several rows move with one
// multi-block DataCopyPad each (every row lands on its own 32-byte-aligned pitch in the Unified
// Buffer), one Add per row against the same b, double-buffered queues.
#include "kernel_operator.h"
#include "bias_add_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelBiasAdd {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR y, const BiasAddTilingData& t) {
        cols_ = t.cols;
        pitch_ = t.colsPadded;
        perTile_ = t.rowsPerTile;
        const uint32_t firstRow = t.rowsPerCore * GetBlockIdx();
        rows_ = firstRow >= t.rows ? 0 : (t.rows - firstRow < t.rowsPerCore ? t.rows - firstRow : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x + firstRow * cols_, rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ half*)y + firstRow * cols_, rows_ * cols_);
        bGm.SetGlobalBuffer((__gm__ half*)b, cols_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, perTile_ * pitch_ * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, perTile_ * pitch_ * sizeof(half));
        pipe.InitBuffer(bQueue, 1, pitch_ * sizeof(half));
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) {
            return;
        }
        LocalTensor<half> bLocal = bQueue.AllocTensor<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        DataCopyPad(bLocal, bGm, params, pad);
        bQueue.EnQue(bLocal);
        bLocal = bQueue.DeQue<half>();
        for (uint32_t r = 0; r < rows_; r += perTile_) {
            const uint32_t k = rows_ - r < perTile_ ? rows_ - r : perTile_;
            CopyIn(r, k);
            Compute(k, bLocal);
            CopyOut(r, k);
        }
        bQueue.FreeTensor(bLocal);
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t k) {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        // k rows of N halves, contiguous in GM; each row starts on a 32-byte boundary in UB (pitch_).
        DataCopyExtParams params{static_cast<uint16_t>(k), static_cast<uint32_t>(cols_ * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[r * cols_], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t k, const LocalTensor<half>& bLocal) {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        for (uint32_t j = 0; j < k; ++j) {
            Add(yLocal[j * pitch_], xLocal[j * pitch_], bLocal, static_cast<int32_t>(cols_));
        }
        outQueue.EnQue<half>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t k) {
        LocalTensor<half> yLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{static_cast<uint16_t>(k), static_cast<uint32_t>(cols_ * sizeof(half)), 0, 0, 0};
        DataCopyPad(yGm[r * cols_], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECIN, 1> bQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm, bGm, yGm;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t pitch_ = 0;
    uint32_t perTile_ = 0;
};

extern "C" __global__ __aicore__ void bias_add_custom(GM_ADDR x, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(BiasAddTilingData, tilingData, tiling);
    KernelBiasAdd op;
    op.Init(x, b, y, tilingData);
    op.Process();
}
