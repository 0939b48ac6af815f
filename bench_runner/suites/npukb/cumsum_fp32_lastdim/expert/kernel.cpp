// cumsum_fp32_lastdim, expert version. The scan runs along a row, so a row's elements cannot be
// the vector lanes; the rows of a tile are. A tile of `lanes` rows x `tileCols` columns arrives
// by one strided DataCopyPad (UB row stride tileCols), is transposed column-major with a Gather
// (byte-offset table built once per core), scanned with one vector Add per column (lanes rows at
// a time, the previous column tile's last column as the carry-in), and transposed back by a second
// Gather before the strided copy out.
#include "kernel_operator.h"
#include "cumsum_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelCumsum {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumsumTilingData& t) {
        cols_ = t.cols;
        lanes_ = t.lanes;
        tileCols_ = t.tileCols;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first) * cols_, static_cast<uint64_t>(rows_) * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(first) * cols_, static_cast<uint64_t>(rows_) * cols_);
        const uint32_t tileElems = lanes_ * tileCols_;
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(transBuf, tileElems * sizeof(float));
        pipe.InitBuffer(toColBuf, tileElems * sizeof(uint32_t));
        pipe.InitBuffer(toRowBuf, tileElems * sizeof(uint32_t));
        pipe.InitBuffer(carryBuf, lanes_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) return;
        BuildTables();
        // Columns of the last column tile past N are never scanned: give them defined contents.
        Duplicate(transBuf.Get<float>(), 0.0f, static_cast<int32_t>(lanes_ * tileCols_));
        LocalTensor<float> carry = carryBuf.Get<float>();
        for (uint32_t r = 0; r < rows_; r += lanes_) {
            const uint32_t rt = rows_ - r < lanes_ ? rows_ - r : lanes_;
            Duplicate(carry, 0.0f, static_cast<int32_t>(lanes_));
            for (uint32_t c = 0; c < cols_; c += tileCols_) {
                const uint32_t len = cols_ - c < tileCols_ ? cols_ - c : tileCols_;
                CopyIn(r, c, rt, len);
                Scan(len);
                CopyOut(r, c, rt, len);
            }
        }
    }

  private:
    // toCol[j * lanes + r] = byte offset of (row r, column j) in the row-major tile;
    // toRow[r * tileCols + j] = byte offset of the same element in the column-major tile.
    __aicore__ inline void BuildTables() {
        LocalTensor<int32_t> toCol = toColBuf.Get<int32_t>();
        LocalTensor<int32_t> toRow = toRowBuf.Get<int32_t>();
        for (uint32_t r = 0; r < lanes_; ++r) toCol.SetValue(r, static_cast<int32_t>(r * tileCols_ * sizeof(float)));
        for (uint32_t j = 0; j < tileCols_; ++j) toRow.SetValue(j, static_cast<int32_t>(j * lanes_ * sizeof(float)));
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        for (uint32_t j = 1; j < tileCols_; ++j) {
            Adds(toCol[j * lanes_], toCol, static_cast<int32_t>(j * sizeof(float)), static_cast<int32_t>(lanes_));
        }
        for (uint32_t r = 1; r < lanes_; ++r) {
            Adds(toRow[r * tileCols_], toRow, static_cast<int32_t>(r * sizeof(float)), static_cast<int32_t>(tileCols_));
        }
    }

    __aicore__ inline void CopyIn(uint32_t r, uint32_t c, uint32_t rt, uint32_t len) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        if (rt < lanes_) {   // unused lanes of the last row group: zeros instead of stale data
            Duplicate(xLocal[rt * tileCols_], 0.0f, static_cast<int32_t>((lanes_ - rt) * tileCols_));
        }
        const uint32_t gapBlocks = (tileCols_ - (len + 7) / 8 * 8) / 8;
        DataCopyExtParams params{static_cast<uint16_t>(rt), static_cast<uint32_t>(len * sizeof(float)),
                                 static_cast<uint32_t>((cols_ - len) * sizeof(float)), gapBlocks, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>((len + 7) / 8 * 8 - len), 0.0f};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * cols_ + c], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Scan(uint32_t len) {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> t = transBuf.Get<float>();
        LocalTensor<float> carry = carryBuf.Get<float>();
        const int32_t lanes = static_cast<int32_t>(lanes_);
        Gather(t, xLocal, toColBuf.Get<uint32_t>(), 0, len * lanes_);
        Add(t, t, carry, lanes);
        for (uint32_t j = 1; j < len; ++j) {
            Add(t[j * lanes_], t[j * lanes_], t[(j - 1) * lanes_], lanes);
        }
        Adds(carry, t[(len - 1) * lanes_], 0.0f, lanes);
        Gather(yLocal, t, toRowBuf.Get<uint32_t>(), 0, lanes_ * tileCols_);
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c, uint32_t rt, uint32_t len) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        const uint32_t gapBlocks = (tileCols_ - (len + 7) / 8 * 8) / 8;
        DataCopyExtParams params{static_cast<uint16_t>(rt), static_cast<uint32_t>(len * sizeof(float)), gapBlocks,
                                 static_cast<uint32_t>((cols_ - len) * sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(r) * cols_ + c], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> transBuf, toColBuf, toRowBuf, carryBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t lanes_ = 8;
    uint32_t tileCols_ = 8;
};

extern "C" __global__ __aicore__ void cumsum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(CumsumTilingData, tilingData, tiling);
    KernelCumsum op;
    op.Init(x, y, tilingData);
    op.Process();
}
