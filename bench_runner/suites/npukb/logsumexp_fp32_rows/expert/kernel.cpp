// logsumexp_fp32_rows, expert version: whole rows per core, each row streamed once through UB in
// chunks of tileCols elements (double-buffered input queue, the copy of chunk k + 1 issued before
// chunk k is processed). Online combination: per chunk ReduceMax, and when the running maximum
// grows the running sum is rescaled by exp(old max - new max); then Adds(-max), Exp, ReduceSum.
// The two transcendental scalars (the rescale factor, the final log) are computed on one vector
// lane. Results are collected in a UB buffer of OUT_CHUNK values and written with one DataCopyPad.
#include "kernel_operator.h"
#include "logsumexp_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t OUT_CHUNK = 256;     // results buffered before one copy out
constexpr uint32_t WORK_ELEMS = 512;    // reduction scratch (>= tileCols / elements per repeat)

class KernelLogSumExp {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogSumExpTilingData& t) {
        cols_ = t.cols;
        tileCols_ = t.tileCols;
        chunks_ = (t.cols + t.tileCols - 1) / t.tileCols;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first) * cols_,
                            static_cast<uint64_t>(rows_) * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + first, rows_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileCols_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_ELEMS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 32);
        pipe.InitBuffer(laneBuf, 32);
        pipe.InitBuffer(outBuf, OUT_CHUNK * sizeof(float));
        outLocal_ = outBuf.Get<float>();
    }

    // The core's rows are a sequence of rows_ * chunks_ chunks.
    __aicore__ inline void Process() {
        const uint32_t total = rows_ * chunks_;
        if (total == 0) return;
        CopyIn(0);
        uint32_t slot = 0;
        uint32_t flushed = 0;
        for (uint32_t k = 0; k < total; ++k) {
            if (k + 1 < total) CopyIn(k + 1);
            const uint32_t c = (k % chunks_) * tileCols_;
            const uint32_t n = cols_ - c < tileCols_ ? cols_ - c : tileCols_;
            Accumulate(c == 0, static_cast<int32_t>(n));
            if (c + n == cols_) {            // last chunk of the row: its result is final
                Store(slot++, max_ + Lane(sum_, false));
                if (slot == OUT_CHUNK || flushed + slot == rows_) {
                    Flush(flushed, slot);
                    flushed += slot;
                    slot = 0;
                }
            }
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t k) {
        const uint32_t c = (k % chunks_) * tileCols_;
        const uint32_t n = cols_ - c < tileCols_ ? cols_ - c : tileCols_;
        const uint64_t offset = static_cast<uint64_t>(k / chunks_) * cols_ + c;
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[offset], params, pad);
        inQueue.EnQue(xLocal);
    }

    // Folds one chunk of n elements into (max_, sum_), where sum_ = sum exp(x - max_) so far.
    __aicore__ inline void Accumulate(bool firstChunk, int32_t n) {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        ReduceMax(scalar, xLocal, work, n);
        const float cmax = ReadScalar(scalar);
        const float newMax = (firstChunk || cmax > max_) ? cmax : max_;
        Adds(xLocal, xLocal, -newMax, n);       // x - max <= 0: no overflow
        Exp(xLocal, xLocal, n);
        ReduceSum(scalar, xLocal, work, n);
        const float chunkSum = ReadScalar(scalar);
        inQueue.FreeTensor(xLocal);
        if (firstChunk) {
            sum_ = chunkSum;
        } else if (cmax > max_) {               // the maximum grew: rescale the earlier terms
            sum_ = sum_ * ScaleFactor(max_ - cmax) + chunkSum;
        } else {
            sum_ += chunkSum;
        }
        max_ = newMax;
    }

    // exp(v) (exponential = true) or log(v) on one vector lane.
    __aicore__ inline float Lane(float v, bool exponential) {
        LocalTensor<float> lane = laneBuf.Get<float>();
        lane.SetValue(0, v);
        SyncSV();
        if (exponential) {
            Exp(lane, lane, 1);
        } else {
            Ln(lane, lane, 1);
        }
        return ReadScalar(lane);
    }

    __aicore__ inline float ScaleFactor(float d) { return Lane(d, true); }

    __aicore__ inline void Store(uint32_t slot, float value) {
        if (slot == 0) SyncMTE3S();   // the previous flush must have read the buffer
        outLocal_.SetValue(slot, value);
    }

    __aicore__ inline void Flush(uint32_t first, uint32_t count) {
        SyncSMTE3();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[first], outLocal_, params);
    }

    // The vector unit wrote the value: make the scalar unit wait for it.
    __aicore__ inline float ReadScalar(const LocalTensor<float>& scalar) {
        SyncVS();
        return static_cast<float>(scalar.GetValue(0));
    }

    __aicore__ inline void SyncVS() {
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }
    __aicore__ inline void SyncSV() {
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }
    __aicore__ inline void SyncSMTE3() {
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::S_MTE3);
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
    }
    __aicore__ inline void SyncMTE3S() {
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::MTE3_S);
        SetFlag<HardEvent::MTE3_S>(ev);
        WaitFlag<HardEvent::MTE3_S>(ev);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TBuf<QuePosition::VECCALC> workBuf, scalarBuf, laneBuf, outBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    LocalTensor<float> outLocal_;
    float max_ = 0.0f;
    float sum_ = 0.0f;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t tileCols_ = 0;
    uint32_t chunks_ = 1;
};

extern "C" __global__ __aicore__ void logsumexp_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogSumExpTilingData, tilingData, tiling);
    KernelLogSumExp op;
    op.Init(x, y, tilingData);
    op.Process();
}
