// gather_rows_fp32, expert version: per tile of tileRows output rows, the indices are copied to
// UB and read on the scalar unit (after an MTE2 -> S flag); each selected table row is copied
// GM -> UB into its 32-byte-padded slot of the tile, and the tile leaves in one strided
// DataCopyPad. Double-buffered, so gathering the next tile overlaps writing this one.
#include "kernel_operator.h"
#include "gather_rows_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelGatherRows {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR y, const GatherRowsTilingData& t) {
        cols_ = t.cols;
        tileCols_ = t.tileCols;
        tileRows_ = t.tileRows;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.numIdx ? 0 : (t.numIdx - first < t.rowsPerCore ? t.numIdx - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(t.numRows) * cols_);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)idx + first, rows_);
        yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(first) * cols_, static_cast<uint64_t>(rows_) * cols_);
        pipe.InitBuffer(queue, BUFFER_NUM, tileRows_ * tileCols_ * sizeof(float));
        pipe.InitBuffer(idxBuf, (tileRows_ + 7) / 8 * 8 * sizeof(int32_t));
    }

    __aicore__ inline void Process() {
        LocalTensor<int32_t> idxLocal = idxBuf.Get<int32_t>();
        for (uint32_t r = 0; r < rows_; r += tileRows_) {
            const uint32_t count = rows_ - r < tileRows_ ? rows_ - r : tileRows_;
            // The previous tile's scalar reads are done (same unit); load this tile's indices.
            DataCopyExtParams ip{1, static_cast<uint32_t>(count * sizeof(int32_t)), 0, 0, 0};
            DataCopyPadExtParams<int32_t> ipad{false, 0, 0, 0};
            DataCopyPad(idxLocal, idxGm[r], ip, ipad);
            const auto eventMS = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S);
            SetFlag<HardEvent::MTE2_S>(eventMS);
            WaitFlag<HardEvent::MTE2_S>(eventMS);
            for (uint32_t c0 = 0; c0 < cols_; c0 += tileCols_) {
                const uint32_t n = cols_ - c0 < tileCols_ ? cols_ - c0 : tileCols_;
                const uint32_t stride = (n + 7) / 8 * 8;
                LocalTensor<float> tile = queue.AllocTensor<float>();
                DataCopyExtParams rp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> rpad{false, 0, 0, 0.0f};
                for (uint32_t k = 0; k < count; ++k) {
                    const uint64_t src = static_cast<uint64_t>(idxLocal.GetValue(k)) * cols_ + c0;
                    DataCopyPad(tile[k * stride], xGm[src], rp, rpad);
                }
                queue.EnQue(tile);
                tile = queue.DeQue<float>();
                DataCopyExtParams op{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(float)), 0,
                                     static_cast<uint32_t>((cols_ - n) * sizeof(float)), 0};
                DataCopyPad(yGm[static_cast<uint64_t>(r) * cols_ + c0], tile, op);
                queue.FreeTensor(tile);
            }
            // The next index load must not overwrite indices still being read.
            const auto eventSM = GetTPipePtr()->FetchEventID(HardEvent::S_MTE2);
            SetFlag<HardEvent::S_MTE2>(eventSM);
            WaitFlag<HardEvent::S_MTE2>(eventSM);
        }
    }

  private:
    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> queue;
    TBuf<QuePosition::VECCALC> idxBuf;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> idxGm;
    uint32_t rows_ = 0, cols_ = 0, tileCols_ = 0, tileRows_ = 0;
};

extern "C" __global__ __aicore__ void gather_rows_custom(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GatherRowsTilingData, tilingData, tiling);
    KernelGatherRows op;
    op.Init(x, idx, y, tilingData);
    op.Process();
}
