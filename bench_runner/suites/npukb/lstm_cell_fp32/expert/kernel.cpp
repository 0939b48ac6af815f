// lstm_cell_fp32, expert version. A tile is rowTile x colTile of the [B, H] state. The four gate
// slices of the tile are copied in with strided DataCopyPads into one buffer laid out
// [gate][row][col], so a single sigmoid chain (Muls, Exp, Adds, Div) covers all four gates at
// once; tanh(g) reuses it as 2 * sigmoid(2g) - 1 (g is doubled before and fixed up after).
// c' and tanh(c') = 2 * sigmoid(2c') - 1 follow with a few more vector instructions. Double
// buffered in and out queues.
#include "kernel_operator.h"
#include "lstm_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLstmCell {
  public:
    __aicore__ inline void Init(GM_ADDR gates, GM_ADDR c, GM_ADDR hOut, GM_ADDR cOut, const LstmTilingData& t) {
        t_ = t;
        first_ = t.tilesPerCore * GetBlockIdx();
        const uint32_t last = first_ + t.tilesPerCore < t.totalTiles ? first_ + t.tilesPerCore : t.totalTiles;
        count_ = first_ < last ? last - first_ : 0;
        gGm.SetGlobalBuffer((__gm__ float*)gates, t.batch * t.hidden * 4);
        cGm.SetGlobalBuffer((__gm__ float*)c, t.batch * t.hidden);
        hoGm.SetGlobalBuffer((__gm__ float*)hOut, t.batch * t.hidden);
        coGm.SetGlobalBuffer((__gm__ float*)cOut, t.batch * t.hidden);
        tileMax_ = t.rowTile * t.colTile;
        pipe.InitBuffer(inQueue, BUFFER_NUM, 5 * tileMax_ * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, 2 * tileMax_ * sizeof(float));
        pipe.InitBuffer(onesBuf, 4 * tileMax_ * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileMax_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (count_ == 0) return;
        Duplicate(onesBuf.Get<float>(), 1.0f, static_cast<int32_t>(4 * tileMax_));
        for (uint32_t i = 0; i < count_; ++i) {
            const uint32_t tile = first_ + i;
            const uint32_t r0 = tile / t_.colBlocks * t_.rowTile;
            const uint32_t c0 = tile % t_.colBlocks * t_.colTile;
            const uint32_t nr = t_.batch - r0 < t_.rowTile ? t_.batch - r0 : t_.rowTile;
            const uint32_t nc = t_.hidden - c0 < t_.colTile ? t_.hidden - c0 : t_.colTile;
            CopyIn(r0, c0, nr, nc);
            Compute(nr * ((nc + 7) / 8 * 8));
            CopyOut(r0, c0, nr, nc);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t c0, uint32_t nr, uint32_t nc) {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        const uint32_t n = nr * ((nc + 7) / 8 * 8);
        const uint32_t h = t_.hidden;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyExtParams gp{static_cast<uint16_t>(nr), static_cast<uint32_t>(nc * sizeof(float)),
                             static_cast<uint32_t>((4 * h - nc) * sizeof(float)), 0, 0};
        for (uint32_t k = 0; k < 4; ++k) {
            DataCopyPad(in[k * n], gGm[r0 * 4 * h + k * h + c0], gp, pad);
        }
        DataCopyExtParams cp{static_cast<uint16_t>(nr), static_cast<uint32_t>(nc * sizeof(float)),
                             static_cast<uint32_t>((h - nc) * sizeof(float)), 0, 0};
        DataCopyPad(in[4 * n], cGm[r0 * h + c0], cp, pad);
        inQueue.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> in = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        LocalTensor<float> ones = onesBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        const int32_t m = static_cast<int32_t>(n);
        LocalTensor<float> ig = in, fg = in[n], gg = in[2 * n], og = in[3 * n], c = in[4 * n];
        LocalTensor<float> hOut = out, cOut = out[n];
        // sigmoid of all four gates (g doubled first: tanh(g) = 2 * sigmoid(2g) - 1)
        Muls(gg, gg, 2.0f, m);
        Muls(in, in, -1.0f, 4 * m);
        Exp(in, in, 4 * m);
        Adds(in, in, 1.0f, 4 * m);
        Div(in, ones, in, 4 * m);
        Muls(gg, gg, 2.0f, m);
        Adds(gg, gg, -1.0f, m);
        // c' = f * c + i * g
        Mul(fg, fg, c, m);
        Mul(ig, ig, gg, m);
        Add(cOut, fg, ig, m);
        // h' = o * tanh(c')
        Muls(tmp, cOut, -2.0f, m);
        Exp(tmp, tmp, m);
        Adds(tmp, tmp, 1.0f, m);
        Div(tmp, ones, tmp, m);
        Muls(tmp, tmp, 2.0f, m);
        Adds(tmp, tmp, -1.0f, m);
        Mul(hOut, og, tmp, m);
        outQueue.EnQue<float>(out);
        inQueue.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t c0, uint32_t nr, uint32_t nc) {
        LocalTensor<float> out = outQueue.DeQue<float>();
        const uint32_t n = nr * ((nc + 7) / 8 * 8);
        DataCopyExtParams p{static_cast<uint16_t>(nr), static_cast<uint32_t>(nc * sizeof(float)), 0,
                            static_cast<uint32_t>((t_.hidden - nc) * sizeof(float)), 0};
        DataCopyPad(hoGm[r0 * t_.hidden + c0], out, p);
        DataCopyPad(coGm[r0 * t_.hidden + c0], out[n], p);
        outQueue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> onesBuf, tmpBuf;
    GlobalTensor<float> gGm, cGm, hoGm, coGm;
    LstmTilingData t_;
    uint32_t first_ = 0;
    uint32_t count_ = 0;
    uint32_t tileMax_ = 0;
};

extern "C" __global__ __aicore__ void lstm_cell_custom(GM_ADDR gates, GM_ADDR c, GM_ADDR h_out, GM_ADDR c_out,
                                                       GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LstmTilingData, tilingData, tiling);
    KernelLstmCell op;
    op.Init(gates, c, h_out, c_out, tilingData);
    op.Process();
}
