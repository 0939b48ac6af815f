// argmin_fp16_lastdim, expert version: whole rows per core, each row streamed through UB in chunks of
// tileCols elements with a double-buffered input queue; each chunk reduced with half ReduceMin(calIndex = true) giving value and first index (16-bit index bits, chunks are at most 8192 long), chunks combined with a strict comparison so the first occurrence wins.
// Results are collected in a UB buffer of OUT_CHUNK values and written with one DataCopyPad.
#include "kernel_operator.h"
#include "argmin_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t OUT_CHUNK = 256;     // results buffered before one copy out
constexpr uint32_t WORK_ELEMS = 512;    // reduction scratch (>= tileCols / elements per repeat)

class KernelArgMin {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ArgMinTilingData& t) {
        cols_ = t.cols;
        tileCols_ = t.tileCols;
        chunks_ = (t.cols + t.tileCols - 1) / t.tileCols;
        invCols_ = 1.0f / static_cast<float>(t.cols);
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x + static_cast<uint64_t>(first) * cols_,
                            static_cast<uint64_t>(rows_) * cols_);
        yGm.SetGlobalBuffer((__gm__ int32_t*)y + first, rows_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileCols_ * sizeof(half));
        pipe.InitBuffer(workBuf, WORK_ELEMS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 32);
        pipe.InitBuffer(outBuf, OUT_CHUNK * sizeof(int32_t));
        outLocal_ = outBuf.Get<int32_t>();
    }

    // The core's rows are a sequence of rows_ * chunks_ chunks: the copy of chunk k + 1 is issued
    // before chunk k is reduced, so MTE2 and the vector unit overlap (two input buffers).
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
            LocalTensor<half> xLocal = inQueue.DeQue<half>();
            LocalTensor<half>& src = xLocal;
            LocalTensor<half> work = workBuf.Get<half>();
            LocalTensor<half> scalar = scalarBuf.Get<half>();
            ReduceMin(scalar, src, work, static_cast<int32_t>(n), true);
            inQueue.FreeTensor(xLocal);
            SyncVS();
            const float v = static_cast<float>(scalar.GetValue(0));
            const uint32_t i = scalar.template ReinterpretCast<uint16_t>().GetValue(1);
            // Strict comparison: an equal value in a later chunk is not the first.
            if (c == 0 || v < best_) {
                best_ = v;
                bestIdx_ = static_cast<int32_t>(c + i);
            }
            if (c + n == cols_) {            // last chunk of the row: its result is final
                Store(slot++);
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
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[offset], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Store(uint32_t slot) {
        if (slot == 0) SyncMTE3S();   // the previous flush must have read the buffer
        outLocal_.SetValue(slot, bestIdx_);
    }

    __aicore__ inline void Flush(uint32_t first, uint32_t count) {
        LocalTensor<int32_t> outF = outBuf.Get<int32_t>();
        SyncSMTE3();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(yGm[first], outF, params);
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
    __aicore__ inline void SyncVMTE3() {
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
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
    TBuf<QuePosition::VECCALC> workBuf, scalarBuf, outBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<int32_t> yGm;
    LocalTensor<int32_t> outLocal_;
    float best_ = 0.0f;
    int32_t bestIdx_ = 0;
    float invCols_ = 1.0f;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t tileCols_ = 0;
    uint32_t chunks_ = 1;
};

extern "C" __global__ __aicore__ void argmin_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ArgMinTilingData, tilingData, tiling);
    KernelArgMin op;
    op.Init(x, y, tilingData);
    op.Process();
}
