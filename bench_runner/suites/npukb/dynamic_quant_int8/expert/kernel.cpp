// dynamic_quant_int8, expert version. Per row: pass 1 casts each chunk to float32, takes Abs and
// ReduceMax (a row that fits one chunk stays in UB for pass 2); the scalar unit forms
// inv = 127 / amax and scale = amax / 127. Pass 2: Muls by inv, then float -> int32 (round half
// to even) -> half -> int8, all exact after the one rounding. Scales are collected in UB and
// written scaleBatch at a time.
#include "kernel_operator.h"
#include "dynamic_quant_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelDynamicQuant {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR scale, const DynamicQuantTilingData& t) {
        cols_ = t.cols;
        tile_ = t.tileCols;
        batch_ = t.scaleBatch;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x + static_cast<uint64_t>(first) * cols_, static_cast<uint64_t>(rows_) * cols_);
        yGm.SetGlobalBuffer((__gm__ int8_t*)y + static_cast<uint64_t>(first) * cols_, static_cast<uint64_t>(rows_) * cols_);
        sGm.SetGlobalBuffer((__gm__ float*)scale + first, rows_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(half));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tile_ * sizeof(int8_t));
        pipe.InitBuffer(xfBuf, tile_ * sizeof(float));
        pipe.InitBuffer(absBuf, tile_ * sizeof(float));
        pipe.InitBuffer(workBuf, tile_ * sizeof(float));
        pipe.InitBuffer(i32Buf, tile_ * sizeof(int32_t));
        pipe.InitBuffer(h16Buf, tile_ * sizeof(half));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(scaleBuf, batch_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        LocalTensor<float> scales = scaleBuf.Get<float>();
        uint32_t pending = 0;
        for (uint32_t r = 0; r < rows_; ++r) {
            const bool oneChunk = cols_ <= tile_;
            float amax = 0.0f;
            for (uint32_t c0 = 0; c0 < cols_; c0 += tile_) {
                const uint32_t n = cols_ - c0 < tile_ ? cols_ - c0 : tile_;
                CopyIn(r, c0, n);
                const float m = ChunkMax(n);
                amax = m > amax ? m : amax;
            }
            const float inv = 127.0f / amax;
            for (uint32_t c0 = 0; c0 < cols_; c0 += tile_) {
                const uint32_t n = cols_ - c0 < tile_ ? cols_ - c0 : tile_;
                if (!oneChunk) {
                    CopyIn(r, c0, n);
                    CastChunk(n);
                }
                Quantize(n, inv);
                CopyOut(r, c0, n);
            }
            if (pending == batch_) {
                FlushScales(r - pending, pending);
                pending = 0;
            }
            scales.SetValue(pending++, amax / 127.0f);
        }
        if (pending) FlushScales(rows_ - pending, pending);
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t c0, uint32_t n) {
        LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, static_cast<half>(0.0f)};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * cols_ + c0], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void CastChunk(uint32_t n) {
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        Cast(xfBuf.Get<float>(), xLocal, RoundMode::CAST_NONE, static_cast<int32_t>(n));
        PipeBarrier<PIPE_V>();
        xQueue.FreeTensor(xLocal);
    }

    // max |x| of the chunk; the float copy stays in xfBuf (used by pass 2 when the row is one chunk).
    __aicore__ inline float ChunkMax(uint32_t n) {
        CastChunk(n);
        LocalTensor<float> xf = xfBuf.Get<float>();
        LocalTensor<float> ab = absBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        const int32_t cnt = static_cast<int32_t>(n);
        Abs(ab, xf, cnt);
        PipeBarrier<PIPE_V>();
        ReduceMax(red, ab, workBuf.Get<float>(), cnt);
        const auto eventVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eventVS);
        WaitFlag<HardEvent::V_S>(eventVS);
        return red.GetValue(0);
    }

    __aicore__ inline void Quantize(uint32_t n, float inv) {
        LocalTensor<float> xf = xfBuf.Get<float>();
        LocalTensor<int32_t> q32 = i32Buf.Get<int32_t>();
        LocalTensor<half> q16 = h16Buf.Get<half>();
        LocalTensor<int8_t> yLocal = yQueue.AllocTensor<int8_t>();
        const int32_t cnt = static_cast<int32_t>(n);
        Muls(xf, xf, inv, cnt);
        PipeBarrier<PIPE_V>();
        Cast(q32, xf, RoundMode::CAST_RINT, cnt);   // the only rounding: half to even
        PipeBarrier<PIPE_V>();
        Cast(q16, q32, RoundMode::CAST_NONE, cnt);  // |q| <= 127: exact
        PipeBarrier<PIPE_V>();
        Cast(yLocal, q16, RoundMode::CAST_NONE, cnt);
        yQueue.EnQue<int8_t>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c0, uint32_t n) {
        LocalTensor<int8_t> yLocal = yQueue.DeQue<int8_t>();
        DataCopyExtParams params{1, n, 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(r) * cols_ + c0], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    __aicore__ inline void FlushScales(uint32_t firstRow, uint32_t count) {
        LocalTensor<float> scales = scaleBuf.Get<float>();
        const auto eventSM = GetTPipePtr()->FetchEventID(HardEvent::S_MTE3);
        SetFlag<HardEvent::S_MTE3>(eventSM);
        WaitFlag<HardEvent::S_MTE3>(eventSM);
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        DataCopyPad(sGm[firstRow], scales, params);
        // The scalar unit must not overwrite the batch before the copy has read it.
        const auto eventMS = GetTPipePtr()->FetchEventID(HardEvent::MTE3_S);
        SetFlag<HardEvent::MTE3_S>(eventMS);
        WaitFlag<HardEvent::MTE3_S>(eventMS);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
    TBuf<QuePosition::VECCALC> xfBuf, absBuf, workBuf, i32Buf, h16Buf, redBuf, scaleBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<int8_t> yGm;
    GlobalTensor<float> sGm;
    uint32_t rows_ = 0, cols_ = 0, tile_ = 0, batch_ = 0;
};

extern "C" __global__ __aicore__ void dynamic_quant_custom(GM_ADDR x, GM_ADDR y, GM_ADDR scale, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(DynamicQuantTilingData, tilingData, tiling);
    KernelDynamicQuant op;
    op.Init(x, y, scale, tilingData);
    op.Process();
}
