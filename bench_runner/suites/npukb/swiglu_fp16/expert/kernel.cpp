// swiglu_fp16, expert version: tiles of tileRows x tileCols elements of each half, moved with one
// strided DataCopyPad per half (blockCount = rows, the other half skipped as a source gap; UB rows
// padded to 32 bytes) and computed as one contiguous vector including the row padding, which is
// never copied out; float32 arithmetic, half in and out.
#include "kernel_operator.h"
#include "swiglu_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ALIGN = 16;   // elements per 32-byte block

class KernelSwiglu {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SwigluTilingData& t) {
        hidden_ = t.hidden;
        tileRows_ = t.tileRows;
        tileCols_ = t.tileCols;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x + static_cast<uint64_t>(first) * 2 * hidden_,
                            static_cast<uint64_t>(rows_) * 2 * hidden_);
        yGm.SetGlobalBuffer((__gm__ half*)y + static_cast<uint64_t>(first) * hidden_,
                            static_cast<uint64_t>(rows_) * hidden_);
        const uint32_t tileElems = tileRows_ * tileCols_;
        pipe.InitBuffer(aQueue, BUFFER_NUM, tileElems * sizeof(half));
        pipe.InitBuffer(bQueue, BUFFER_NUM, tileElems * sizeof(half));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileElems * sizeof(half));
        pipe.InitBuffer(afBuf, tileElems * sizeof(float));
        pipe.InitBuffer(bfBuf, tileElems * sizeof(float));
        pipe.InitBuffer(tfBuf, tileElems * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t r = 0; r < rows_; r += tileRows_) {
            const uint32_t rt = rows_ - r < tileRows_ ? rows_ - r : tileRows_;
            for (uint32_t c = 0; c < hidden_; c += tileCols_) {
                const uint32_t n = hidden_ - c < tileCols_ ? hidden_ - c : tileCols_;
                CopyIn(r, c, rt, n);
                Compute(rt * ((n + ALIGN - 1) / ALIGN * ALIGN));
                CopyOut(r, c, rt, n);
            }
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t c, uint32_t rt, uint32_t n) {
        // rt rows of n elements; in GM consecutive rows are 2H apart, in UB each row is padded to 32 B.
        DataCopyExtParams params{static_cast<uint16_t>(rt), static_cast<uint32_t>(n * sizeof(half)),
                                 static_cast<uint32_t>((2 * hidden_ - n) * sizeof(half)), 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        const uint64_t base = static_cast<uint64_t>(r) * 2 * hidden_ + c;
        LocalTensor<half> aLocal = aQueue.AllocTensor<half>();
        DataCopyPad(aLocal, xGm[base], params, pad);
        aQueue.EnQue(aLocal);
        LocalTensor<half> bLocal = bQueue.AllocTensor<half>();
        DataCopyPad(bLocal, xGm[base + hidden_], params, pad);
        bQueue.EnQue(bLocal);
    }

    __aicore__ inline void Compute(uint32_t elems) {
        const int32_t len = static_cast<int32_t>(elems);
        LocalTensor<half> aLocal = aQueue.DeQue<half>();
        LocalTensor<half> bLocal = bQueue.DeQue<half>();
        LocalTensor<half> yLocal = yQueue.AllocTensor<half>();
        LocalTensor<float> af = afBuf.Get<float>();
        LocalTensor<float> bf = bfBuf.Get<float>();
        LocalTensor<float> tf = tfBuf.Get<float>();
        Cast(af, aLocal, RoundMode::CAST_NONE, len);
        Cast(bf, bLocal, RoundMode::CAST_NONE, len);
        Muls(tf, af, -1.0f, len);
        Exp(tf, tf, len);
        Adds(tf, tf, 1.0f, len);
        Div(af, af, tf, len);           // silu(a)
        Mul(af, af, bf, len);
        Cast(yLocal, af, RoundMode::CAST_RINT, len);
        yQueue.EnQue<half>(yLocal);
        aQueue.FreeTensor(aLocal);
        bQueue.FreeTensor(bLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c, uint32_t rt, uint32_t n) {
        LocalTensor<half> yLocal = yQueue.DeQue<half>();
        DataCopyExtParams params{static_cast<uint16_t>(rt), static_cast<uint32_t>(n * sizeof(half)), 0,
                                 static_cast<uint32_t>((hidden_ - n) * sizeof(half)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(r) * hidden_ + c], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQueue, bQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
    TBuf<QuePosition::VECCALC> afBuf, bfBuf, tfBuf;
    GlobalTensor<half> xGm, yGm;
    uint32_t rows_ = 0;
    uint32_t hidden_ = 0;
    uint32_t tileRows_ = 1;
    uint32_t tileCols_ = 0;
};

extern "C" __global__ __aicore__ void swiglu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SwigluTilingData, tilingData, tiling);
    KernelSwiglu op;
    op.Init(x, y, tilingData);
    op.Process();
}
