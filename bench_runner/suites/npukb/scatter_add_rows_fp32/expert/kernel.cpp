// scatter_add_rows_fp32, expert version: owner computes. Each core owns a range of output rows
// and accumulates them in UB, blockRows x tileCols at a time: the block starts as x, the index
// list is scanned in batches on the scalar unit, and every src row that targets the block is
// copied in (double-buffered) and added with Add. No atomics, and each output row is summed in
// increasing k, so the result does not depend on the core count or timing.
#include "kernel_operator.h"
#include "scatter_add_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelScatterAdd {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR src, GM_ADDR y, const ScatterAddTilingData& t) {
        cols_ = t.cols;
        numIdx_ = t.numIdx;
        blockRows_ = t.blockRows;
        tileCols_ = t.tileCols;
        batch_ = t.idxBatch;
        first_ = t.rowsPerCore * GetBlockIdx();
        rows_ = first_ >= t.numRows ? 0 : (t.numRows - first_ < t.rowsPerCore ? t.numRows - first_ : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(t.numRows) * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(t.numRows) * cols_);
        srcGm.SetGlobalBuffer((__gm__ float*)src, static_cast<uint64_t>(numIdx_) * cols_);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)idx, numIdx_);
        pipe.InitBuffer(rowQueue, BUFFER_NUM, tileCols_ * sizeof(float));
        pipe.InitBuffer(accBuf, blockRows_ * tileCols_ * sizeof(float));
        pipe.InitBuffer(idxBuf, batch_ * sizeof(int32_t));
    }

    __aicore__ inline void Process() {
        for (uint32_t b0 = first_; b0 < first_ + rows_; b0 += blockRows_) {
            const uint32_t bn = first_ + rows_ - b0 < blockRows_ ? first_ + rows_ - b0 : blockRows_;
            for (uint32_t c0 = 0; c0 < cols_; c0 += tileCols_) {
                const uint32_t n = cols_ - c0 < tileCols_ ? cols_ - c0 : tileCols_;
                Block(b0, bn, c0, n);
            }
        }
    }

  private:
    template <HardEvent E>
    __aicore__ inline void Sync() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    // Output rows [b0, b0 + bn), columns [c0, c0 + n).
    __aicore__ inline void Block(uint32_t b0, uint32_t bn, uint32_t c0, uint32_t n) {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<int32_t> ids = idxBuf.Get<int32_t>();
        const uint32_t stride = (n + 7) / 8 * 8;
        DataCopyExtParams rows{static_cast<uint16_t>(bn), static_cast<uint32_t>(n * sizeof(float)),
                               static_cast<uint32_t>((cols_ - n) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(acc, xGm[static_cast<uint64_t>(b0) * cols_ + c0], rows, pad);
        Sync<HardEvent::MTE2_V>();
        DataCopyExtParams one{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        for (uint32_t k0 = 0; k0 < numIdx_; k0 += batch_) {
            const uint32_t kn = numIdx_ - k0 < batch_ ? numIdx_ - k0 : batch_;
            DataCopyExtParams ip{1, static_cast<uint32_t>(kn * sizeof(int32_t)), 0, 0, 0};
            DataCopyPadExtParams<int32_t> ipad{false, 0, 0, 0};
            DataCopyPad(ids, idxGm[k0], ip, ipad);
            Sync<HardEvent::MTE2_S>();
            for (uint32_t j = 0; j < kn; ++j) {
                const uint32_t target = static_cast<uint32_t>(ids.GetValue(j));
                if (target < b0 || target >= b0 + bn) continue;
                LocalTensor<float> row = rowQueue.AllocTensor<float>();
                DataCopyPad(row, srcGm[static_cast<uint64_t>(k0 + j) * cols_ + c0], one, pad);
                rowQueue.EnQue(row);
                row = rowQueue.DeQue<float>();
                LocalTensor<float> dst = acc[(target - b0) * stride];
                Add(dst, dst, row, static_cast<int32_t>(n));
                rowQueue.FreeTensor(row);
            }
            Sync<HardEvent::S_MTE2>();  // the next index batch must not overwrite ids under the scalar unit
        }
        Sync<HardEvent::V_MTE3>();
        DataCopyExtParams out{static_cast<uint16_t>(bn), static_cast<uint32_t>(n * sizeof(float)), 0,
                              static_cast<uint32_t>((cols_ - n) * sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(b0) * cols_ + c0], acc, out);
        Sync<HardEvent::MTE3_MTE2>();  // the next block's load reuses acc
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQueue;
    TBuf<QuePosition::VECCALC> accBuf, idxBuf;
    GlobalTensor<float> xGm, yGm, srcGm;
    GlobalTensor<int32_t> idxGm;
    uint32_t cols_ = 0, numIdx_ = 0, blockRows_ = 0, tileCols_ = 0, batch_ = 0, first_ = 0, rows_ = 0;
};

extern "C" __global__ __aicore__ void scatter_add_rows_custom(GM_ADDR x, GM_ADDR idx, GM_ADDR src, GM_ADDR y,
                                                              GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScatterAddTilingData, tilingData, tiling);
    KernelScatterAdd op;
    op.Init(x, idx, src, y, tilingData);
    op.Process();
}
