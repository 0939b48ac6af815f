// embedding_backward_fp32, expert version: owner computes. Each core owns a range of
// grad_weight rows and accumulates them in UB, blockRows x tileCols at a time: the block starts
// at zero (Duplicate), the id list is scanned in batches on the scalar unit, and every grad_out
// row whose id falls in the block (and is not padding_idx) is copied in (double-buffered) and
// added. No atomics; each row is summed in increasing token order (deterministic).
#include "kernel_operator.h"
#include "embedding_backward_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelEmbeddingBackward {
  public:
    __aicore__ inline void Init(GM_ADDR gradOut, GM_ADDR ids, GM_ADDR gradWeight, const EmbeddingBackwardTilingData& t) {
        cols_ = t.cols;
        numIds_ = t.numIds;
        padIdx_ = t.paddingIdx;
        blockRows_ = t.blockRows;
        tileCols_ = t.tileCols;
        batch_ = t.idxBatch;
        first_ = t.rowsPerCore * GetBlockIdx();
        rows_ = first_ >= t.numWeights ? 0
                                       : (t.numWeights - first_ < t.rowsPerCore ? t.numWeights - first_ : t.rowsPerCore);
        gGm.SetGlobalBuffer((__gm__ float*)gradOut, static_cast<uint64_t>(numIds_) * cols_);
        wGm.SetGlobalBuffer((__gm__ float*)gradWeight, static_cast<uint64_t>(t.numWeights) * cols_);
        idGm.SetGlobalBuffer((__gm__ int32_t*)ids, numIds_);
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

    // grad_weight rows [b0, b0 + bn), columns [c0, c0 + n).
    __aicore__ inline void Block(uint32_t b0, uint32_t bn, uint32_t c0, uint32_t n) {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<int32_t> ids = idxBuf.Get<int32_t>();
        const uint32_t stride = (n + 7) / 8 * 8;
        Duplicate(acc, 0.0f, static_cast<int32_t>(bn * stride));
        DataCopyExtParams one{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t k0 = 0; k0 < numIds_; k0 += batch_) {
            const uint32_t kn = numIds_ - k0 < batch_ ? numIds_ - k0 : batch_;
            DataCopyExtParams ip{1, static_cast<uint32_t>(kn * sizeof(int32_t)), 0, 0, 0};
            DataCopyPadExtParams<int32_t> ipad{false, 0, 0, 0};
            DataCopyPad(ids, idGm[k0], ip, ipad);
            Sync<HardEvent::MTE2_S>();
            for (uint32_t j = 0; j < kn; ++j) {
                const uint32_t target = static_cast<uint32_t>(ids.GetValue(j));
                if (target < b0 || target >= b0 + bn || ids.GetValue(j) == padIdx_) continue;
                LocalTensor<float> row = rowQueue.AllocTensor<float>();
                DataCopyPad(row, gGm[static_cast<uint64_t>(k0 + j) * cols_ + c0], one, pad);
                rowQueue.EnQue(row);
                row = rowQueue.DeQue<float>();
                LocalTensor<float> dst = acc[(target - b0) * stride];
                Add(dst, dst, row, static_cast<int32_t>(n));
                rowQueue.FreeTensor(row);
            }
            Sync<HardEvent::S_MTE2>();  // the next id batch must not overwrite ids under the scalar unit
        }
        Sync<HardEvent::V_MTE3>();
        DataCopyExtParams out{static_cast<uint16_t>(bn), static_cast<uint32_t>(n * sizeof(float)), 0,
                              static_cast<uint32_t>((cols_ - n) * sizeof(float)), 0};
        DataCopyPad(wGm[static_cast<uint64_t>(b0) * cols_ + c0], acc, out);
        Sync<HardEvent::MTE3_V>();  // the next block's Duplicate reuses acc
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQueue;
    TBuf<QuePosition::VECCALC> accBuf, idxBuf;
    GlobalTensor<float> gGm, wGm;
    GlobalTensor<int32_t> idGm;
    uint32_t cols_ = 0, numIds_ = 0, blockRows_ = 0, tileCols_ = 0, batch_ = 0, first_ = 0, rows_ = 0;
    int32_t padIdx_ = -1;
};

extern "C" __global__ __aicore__ void embedding_backward_custom(GM_ADDR grad_out, GM_ADDR ids, GM_ADDR grad_weight,
                                                                GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(EmbeddingBackwardTilingData, tilingData, tiling);
    KernelEmbeddingBackward op;
    op.Init(grad_out, ids, grad_weight, tilingData);
    op.Process();
}
