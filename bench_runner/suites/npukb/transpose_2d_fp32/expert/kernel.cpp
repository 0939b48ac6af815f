// transpose_2d_fp32, expert version. The emulator has no Transpose API, so each tile is
// transposed with one byte-offset Gather: out[j * TR + i] = in[i * TC + j]. The offset table is
// built once per core (TR scalar writes for column 0, then doubling Adds: column j is column 0
// plus 4 j bytes). Tiles come in with a strided DataCopyPad that keeps the UB row stride at TC
// (edge tiles included) and leave as n rows of m elements with a GM gap of M - m. The input
// tile lives in a TBuf zeroed once, so edge tiles never gather uninitialised bytes; the output
// tiles are double-buffered.
#include "kernel_operator.h"
#include "transpose_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelTranspose {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TransposeTilingData& t) {
        rows_ = t.rows;
        cols_ = t.cols;
        tileRows_ = t.tileRows;
        tileCols_ = t.tileCols;
        tilesN_ = t.tilesN;
        const uint32_t tiles = t.tilesM * t.tilesN;
        firstTile_ = t.tilesPerCore * GetBlockIdx();
        numTiles_ = firstTile_ >= tiles ? 0 : (tiles - firstTile_ < t.tilesPerCore ? tiles - firstTile_ : t.tilesPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(rows_) * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(rows_) * cols_);
        const uint32_t elems = tileRows_ * tileCols_;
        pipe.InitBuffer(inBuf, elems * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, elems * sizeof(float));
        pipe.InitBuffer(offBuf, elems * sizeof(uint32_t));
    }

    __aicore__ inline void Process() {
        if (numTiles_ == 0) return;
        BuildOffsets();
        LocalTensor<float> in = inBuf.Get<float>();
        Duplicate(in, 0.0f, static_cast<int32_t>(tileRows_ * tileCols_));
        Sync<HardEvent::V_MTE2>();
        for (uint32_t k = 0; k < numTiles_; ++k) {
            const uint32_t tile = firstTile_ + k;
            const uint32_t r0 = (tile / tilesN_) * tileRows_;
            const uint32_t c0 = (tile % tilesN_) * tileCols_;
            const uint32_t m = rows_ - r0 < tileRows_ ? rows_ - r0 : tileRows_;
            const uint32_t n = cols_ - c0 < tileCols_ ? cols_ - c0 : tileCols_;
            CopyIn(r0, c0, m, n);
            Compute();
            CopyOut(r0, c0, m, n);
        }
    }

  private:
    template <HardEvent E>
    __aicore__ inline void Sync() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void BuildOffsets() {
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        for (uint32_t i = 0; i < tileRows_; ++i) {
            offs.SetValue(i, static_cast<uint32_t>(i * tileCols_ * sizeof(float)));
        }
        Sync<HardEvent::S_V>();
        LocalTensor<int32_t> offsI = offs.ReinterpretCast<int32_t>();
        const uint32_t total = tileRows_ * tileCols_;
        for (uint32_t len = tileRows_; len < total; len *= 2) {
            const uint32_t cnt = total - len < len ? total - len : len;
            // Output rows [len / TR, ...) read input columns shifted by len / TR elements.
            Adds(offsI[len], offsI, static_cast<int32_t>(len / tileRows_ * sizeof(float)), static_cast<int32_t>(cnt));
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t c0, uint32_t m, uint32_t n) {
        LocalTensor<float> in = inBuf.Get<float>();
        const uint32_t rowBlocks = (n + 7) / 8;
        DataCopyExtParams params{static_cast<uint16_t>(m), static_cast<uint32_t>(n * sizeof(float)),
                                 static_cast<uint32_t>((cols_ - n) * sizeof(float)), tileCols_ / 8 - rowBlocks, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(in, xGm[static_cast<uint64_t>(r0) * cols_ + c0], params, pad);
        Sync<HardEvent::MTE2_V>();
    }

    __aicore__ inline void Compute() {
        LocalTensor<float> in = inBuf.Get<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Gather(out, in, offBuf.Get<uint32_t>(), 0, tileRows_ * tileCols_);
        outQueue.EnQue<float>(out);
        Sync<HardEvent::V_MTE2>();  // the next tile's copy overwrites in only after the Gather read it
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t c0, uint32_t m, uint32_t n) {
        LocalTensor<float> out = outQueue.DeQue<float>();
        const uint32_t rowBlocks = (m + 7) / 8;
        DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(m * sizeof(float)),
                                 tileRows_ / 8 - rowBlocks, static_cast<uint32_t>((rows_ - m) * sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(c0) * rows_ + r0], out, params);
        outQueue.FreeTensor(out);
    }

    TPipe pipe;
    TBuf<QuePosition::VECCALC> inBuf, offBuf;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows_ = 0, cols_ = 0, tileRows_ = 0, tileCols_ = 0, tilesN_ = 0, firstTile_ = 0, numTiles_ = 0;
};

extern "C" __global__ __aicore__ void transpose_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(TransposeTilingData, tilingData, tiling);
    KernelTranspose op;
    op.Init(x, y, tilingData);
    op.Process();
}
