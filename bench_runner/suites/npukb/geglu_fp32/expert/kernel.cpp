// geglu_fp32, expert version: tiles of tileRows x tileCols elements of each half, moved with one
// strided DataCopyPad per half (blockCount = rows, the other half skipped as a source gap; UB rows
// padded to 32 bytes) and computed as one contiguous vector including the row padding, which is
// never copied out.
#include "kernel_operator.h"
#include "geglu_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ALIGN = 8;   // elements per 32-byte block
constexpr float K = 0.7978845608028654f;   // sqrt(2 / pi)
constexpr float C = 0.044715f;

class KernelGeglu {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GegluTilingData& t) {
        hidden_ = t.hidden;
        tileRows_ = t.tileRows;
        tileCols_ = t.tileCols;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first) * 2 * hidden_,
                            static_cast<uint64_t>(rows_) * 2 * hidden_);
        yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(first) * hidden_,
                            static_cast<uint64_t>(rows_) * hidden_);
        const uint32_t tileElems = tileRows_ * tileCols_;
        pipe.InitBuffer(aQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(bQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileElems * sizeof(float));
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
        DataCopyExtParams params{static_cast<uint16_t>(rt), static_cast<uint32_t>(n * sizeof(float)),
                                 static_cast<uint32_t>((2 * hidden_ - n) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        const uint64_t base = static_cast<uint64_t>(r) * 2 * hidden_ + c;
        LocalTensor<float> aLocal = aQueue.AllocTensor<float>();
        DataCopyPad(aLocal, xGm[base], params, pad);
        aQueue.EnQue(aLocal);
        LocalTensor<float> bLocal = bQueue.AllocTensor<float>();
        DataCopyPad(bLocal, xGm[base + hidden_], params, pad);
        bQueue.EnQue(bLocal);
    }

    __aicore__ inline void Compute(uint32_t elems) {
        const int32_t len = static_cast<int32_t>(elems);
        LocalTensor<float> aLocal = aQueue.DeQue<float>();
        LocalTensor<float> bLocal = bQueue.DeQue<float>();
        LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        LocalTensor<float> tf = tfBuf.Get<float>();
        // gelu(a) = a * sigmoid(2z) = a / (1 + exp(-2z)), z = k (a + c a^3)
        Mul(tf, aLocal, aLocal, len);
        Muls(tf, tf, C, len);
        Adds(tf, tf, 1.0f, len);
        Mul(tf, tf, aLocal, len);
        Muls(tf, tf, -2.0f * K, len);
        Exp(tf, tf, len);
        Adds(tf, tf, 1.0f, len);
        Div(tf, aLocal, tf, len);
        Mul(yLocal, tf, bLocal, len);
        yQueue.EnQue<float>(yLocal);
        aQueue.FreeTensor(aLocal);
        bQueue.FreeTensor(bLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c, uint32_t rt, uint32_t n) {
        LocalTensor<float> yLocal = yQueue.DeQue<float>();
        DataCopyExtParams params{static_cast<uint16_t>(rt), static_cast<uint32_t>(n * sizeof(float)), 0,
                                 static_cast<uint32_t>((hidden_ - n) * sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(r) * hidden_ + c], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQueue, bQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
    TBuf<QuePosition::VECCALC> tfBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows_ = 0;
    uint32_t hidden_ = 0;
    uint32_t tileRows_ = 1;
    uint32_t tileCols_ = 0;
};

extern "C" __global__ __aicore__ void geglu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GegluTilingData, tilingData, tiling);
    KernelGeglu op;
    op.Init(x, y, tilingData);
    op.Process();
}
