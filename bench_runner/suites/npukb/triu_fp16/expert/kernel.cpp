// triu_fp16, expert version: a column-index ramp (exact in half up to 2048) is built once per
// core (8 scalar writes, then doubling with Adds); for each row chunk, CompareScalar(ramp >= first
// kept column) gives a bit mask and Select keeps x or writes 0. Chunks that keep nothing skip the
// read. Double-buffered.
#include "kernel_operator.h"
#include "triu_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelTriu {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TriuTilingData& t) {
        cols_ = t.cols;
        tile_ = t.tileCols;
        diag_ = t.diagonal;
        first_ = t.rowsPerCore * GetBlockIdx();
        rows_ = first_ >= t.rows ? 0 : (t.rows - first_ < t.rowsPerCore ? t.rows - first_ : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x + first_ * cols_, rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ half*)y + first_ * cols_, rows_ * cols_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tile_ * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(half));
        pipe.InitBuffer(rampBuf, tile_ * sizeof(half));
        pipe.InitBuffer(maskBuf, tile_ / 8);
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) return;
        BuildRamp();
        for (uint32_t r = 0; r < rows_; ++r) {
            // Columns [start, N) of this row survive.
            const int64_t start = static_cast<int64_t>(first_ + r) + diag_;
            for (uint32_t c0 = 0; c0 < cols_; c0 += tile_) {
                const uint32_t n = cols_ - c0 < tile_ ? cols_ - c0 : tile_;
                int64_t thr = start - static_cast<int64_t>(c0);
                if (thr >= static_cast<int64_t>(n)) {
                    Zeros(n);
                } else {
                    if (thr < 0) thr = 0;
                    CopyIn(r, c0, n);
                    Compute(n, static_cast<half>(static_cast<float>(thr)));
                }
                CopyOut(r, c0, n);
            }
        }
    }

  private:
    __aicore__ inline void BuildRamp() {
        LocalTensor<half> ramp = rampBuf.Get<half>();
        for (int32_t i = 0; i < 16; ++i) ramp.SetValue(i, static_cast<half>(static_cast<float>(i)));
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
        for (uint32_t len = 16; len < tile_; len *= 2) {
            const uint32_t n = tile_ - len < len ? tile_ - len : len;
            Adds(ramp[len], ramp, static_cast<half>(static_cast<float>(len)), static_cast<int32_t>(n));
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void CopyIn(uint32_t r, uint32_t c0, uint32_t n) {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, static_cast<half>(0.0f)};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * cols_ + c0], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n, half thr) {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        LocalTensor<half> ramp = rampBuf.Get<half>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        const uint32_t padded = (n + 127) / 128 * 128;  // Compare works on whole 256-byte repeats
        CompareScalar(mask, ramp, thr, CMPMODE::GE, padded);
        PipeBarrier<PIPE_V>();
        Select(yLocal, mask, xLocal, static_cast<half>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        outQueue.EnQue<half>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void Zeros(uint32_t n) {
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        Duplicate(yLocal, static_cast<half>(0.0f), static_cast<int32_t>(n));
        outQueue.EnQue<half>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c0, uint32_t n) {
        LocalTensor<half> yLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(r) * cols_ + c0], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> rampBuf, maskBuf;
    GlobalTensor<half> xGm, yGm;
    uint32_t first_ = 0;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t tile_ = 0;
    int32_t diag_ = 0;
};

extern "C" __global__ __aicore__ void triu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(TriuTilingData, tilingData, tiling);
    KernelTriu op;
    op.Init(x, y, tilingData);
    op.Process();
}
