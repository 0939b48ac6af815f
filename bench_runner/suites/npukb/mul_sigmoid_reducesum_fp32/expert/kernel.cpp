// mul_sigmoid_reducesum_fp32, expert version. Short rows: rowsPerTile rows per tile (strided
// DataCopyPad, 32-byte-padded UB rows), x * sigmoid(y) = x / (1 + exp(-y)) over the whole tile,
// then one ReduceSum per row written straight into a UB result batch. Long rows: column chunks,
// one partial ReduceSum per chunk, then a ReduceSum of the partials. Results leave outBatch at a
// time. Double-buffered inputs; no scalar arithmetic on the data path.
#include "kernel_operator.h"
#include "mul_sigmoid_reducesum_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CHUNKS = 64;

class KernelMulSigmoidReduceSum {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR out, const MulSigmoidReduceSumTilingData& t) {
        cols_ = t.cols;
        tileCols_ = t.tileCols;
        rpt_ = t.rowsPerTile;
        batch_ = t.outBatch;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first) * cols_, static_cast<uint64_t>(rows_) * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(first) * cols_, static_cast<uint64_t>(rows_) * cols_);
        oGm.SetGlobalBuffer((__gm__ float*)out + first, rows_);
        const uint32_t elems = rpt_ * tileCols_;
        pipe.InitBuffer(xQueue, BUFFER_NUM, elems * sizeof(float));
        pipe.InitBuffer(yQueue, BUFFER_NUM, elems * sizeof(float));
        pipe.InitBuffer(tBuf, elems * sizeof(float));
        pipe.InitBuffer(workBuf, tileCols_ * sizeof(float));
        pipe.InitBuffer(partBuf, MAX_CHUNKS * sizeof(float));
        pipe.InitBuffer(outBuf, batch_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        const uint32_t chunks = (cols_ + tileCols_ - 1) / tileCols_;
        LocalTensor<float> outLocal = outBuf.Get<float>();
        LocalTensor<float> part = partBuf.Get<float>();
        uint32_t pending = 0;  // results in outLocal not yet written
        uint32_t done = 0;     // rows already written
        for (uint32_t r = 0; r < rows_; r += rpt_) {
            const uint32_t count = rows_ - r < rpt_ ? rows_ - r : rpt_;
            if (pending + count > batch_) {
                Flush(done, pending);
                done += pending;
                pending = 0;
            }
            for (uint32_t c = 0; c < chunks; ++c) {
                const uint32_t c0 = c * tileCols_;
                const uint32_t n = cols_ - c0 < tileCols_ ? cols_ - c0 : tileCols_;
                CopyIn(r, c0, count, n);
                // One chunk: each row's sum goes straight into the result batch.
                Compute(count, n, chunks == 1 ? outLocal[pending] : part[c]);
            }
            if (chunks > 1) {
                PipeBarrier<PIPE_V>();
                ReduceSum(outLocal[pending], part, workBuf.Get<float>(), static_cast<int32_t>(chunks));
            }
            pending += count;
        }
        if (pending) Flush(done, pending);
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t c0, uint32_t count, uint32_t n) {
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(count), static_cast<uint32_t>(n * sizeof(float)),
                                 static_cast<uint32_t>((cols_ - n) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        const uint64_t off = static_cast<uint64_t>(r) * cols_ + c0;
        DataCopyPad(xLocal, xGm[off], params, pad);
        DataCopyPad(yLocal, yGm[off], params, pad);
        xQueue.EnQue(xLocal);
        yQueue.EnQue(yLocal);
    }

    // Row j's sum of the chunk lands in dst[j].
    __aicore__ inline void Compute(uint32_t count, uint32_t n, const LocalTensor<float>& dst) {
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> yLocal = yQueue.DeQue<float>();
        LocalTensor<float> t = tBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        const uint32_t stride = (n + 7) / 8 * 8;
        const int32_t cnt = static_cast<int32_t>(count * stride);
        Muls(t, yLocal, -1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Exp(t, t, cnt);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Div(t, xLocal, t, cnt);  // x * sigmoid(y) = x / (1 + exp(-y))
        PipeBarrier<PIPE_V>();
        for (uint32_t j = 0; j < count; ++j) {
            ReduceSum(dst[j], t[j * stride], work, static_cast<int32_t>(n));
            PipeBarrier<PIPE_V>();
        }
        xQueue.FreeTensor(xLocal);
        yQueue.FreeTensor(yLocal);
    }

    __aicore__ inline void Flush(uint32_t firstRow, uint32_t count) {
        LocalTensor<float> outLocal = outBuf.Get<float>();
        const auto eventVM = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
        SetFlag<HardEvent::V_MTE3>(eventVM);
        WaitFlag<HardEvent::V_MTE3>(eventVM);
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        DataCopyPad(oGm[firstRow], outLocal, params);
        // The vector unit must not overwrite the batch before the copy has read it.
        const auto eventMV = GetTPipePtr()->FetchEventID(HardEvent::MTE3_V);
        SetFlag<HardEvent::MTE3_V>(eventMV);
        WaitFlag<HardEvent::MTE3_V>(eventMV);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue, yQueue;
    TBuf<QuePosition::VECCALC> tBuf, workBuf, partBuf, outBuf;
    GlobalTensor<float> xGm, yGm, oGm;
    uint32_t rows_ = 0, cols_ = 0, tileCols_ = 0, rpt_ = 0, batch_ = 0;
};

extern "C" __global__ __aicore__ void mul_sigmoid_reducesum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MulSigmoidReduceSumTilingData, tilingData, tiling);
    KernelMulSigmoidReduceSum op;
    op.Init(x, y, out, tilingData);
    op.Process();
}
