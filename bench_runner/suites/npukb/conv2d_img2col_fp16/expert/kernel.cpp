// conv2d_img2col_fp16, expert version (cube core only): an implicit img2col GEMM.
//
// For an image n, y[n] (CO x P, P = HO * WO) = w (CO x K') @ col^T with K' = (c, kh) groups of
// one 16-wide C0 block each, holding kw = 0 .. KW-1 and zeros after it. Both operands are built
// in L1 by DataCopy with Nd2NzParams, never materialised in GM:
//  * w (A, CO x K'): ndNum = C * KH matrices of CO rows x KW columns, srcNdMatrixStride = KW,
//    srcDValue = C * KH * KW, one C0 block per matrix (dstNzMatrixStride = 16 * round16(CO));
//  * col (B^T, P x K'): per (c, ho), ndNum = KH matrices (source stride W) of WO rows x KW
//    columns whose rows start one element apart (srcDValue = 1: row wo reads x[c, ho + kh, wo ..
//    wo + KW)), written at row (ho - h0) * WO of the group's C0 block.
// The zero padding of each partial C0 block (KW -> 16) makes the extra K columns contribute 0.
// L1 -> L0A (Zz) per 16 rows of w, L1 -> L0B in one LoadData (P x K' NZ is already Zn), Mmad
// over K' in chunks of 4 blocks, Fixpipe F322F16 row-major into y[n, :, h0 * WO ...] with row
// stride P. A tile is rowsPerTile output rows of one image.
#include "kernel_operator.h"
#include "conv_tiling.h"

using namespace AscendC;

__aicore__ inline uint32_t Up16(uint32_t x) { return (x + 15) / 16 * 16; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

class KernelConv {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvTilingData& t) {
        t_ = t;
        xGm.SetGlobalBuffer((__gm__ half*)x, static_cast<uint64_t>(t.N) * t.C * t.H * t.W);
        wGm.SetGlobalBuffer((__gm__ half*)w, static_cast<uint64_t>(t.CO) * t.C * t.KH * t.KW);
        yGm.SetGlobalBuffer((__gm__ half*)y, static_cast<uint64_t>(t.N) * t.CO * t.HO * t.WO);
        groups_ = t.C * t.KH;
        coPad_ = Up16(t.CO);
        pMax_ = Up16(t.rowsPerTile * t.WO);
        pipe.InitBuffer(wBuf, coPad_ * groups_ * 16 * sizeof(half));
        pipe.InitBuffer(qB1, 2, pMax_ * groups_ * 16 * sizeof(half));
        pipe.InitBuffer(qA2, 2, coPad_ * KB * 16 * sizeof(half));
        pipe.InitBuffer(qB2, 2, pMax_ * KB * 16 * sizeof(half));
        pipe.InitBuffer(qC, 2, coPad_ * pMax_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        const uint32_t tiles = t_.N * t_.hTiles;
        if (GetBlockIdx() >= tiles) return;
        // the weights, once: CO x (C * KH groups of a 16-wide block)
        LocalTensor<half> w1 = wBuf.Get<half>();
        DataCopy(w1, wGm, Nd2NzParams(groups_, t_.CO, t_.KW, t_.KW, groups_ * t_.KW, coPad_, 1, coPad_ * 16));
        for (uint32_t tile = GetBlockIdx(); tile < tiles; tile += t_.usedCores) {
            Tile(w1, tile / t_.hTiles, tile % t_.hTiles);
        }
    }

  private:
    static constexpr uint32_t KB = 4;  // C0 blocks of K' per Mmad

    __aicore__ inline void Tile(const LocalTensor<half>& w1, uint32_t n, uint32_t ht) {
        const uint32_t h0 = ht * t_.rowsPerTile, rows = Min(t_.HO - h0, t_.rowsPerTile);
        const uint32_t wo = t_.WO, P = rows * wo, pPad = Up16(P);
        const uint32_t m1 = coPad_ / 16, p1 = pPad / 16;
        // col^T in L1: P x K' (NZ), built with overlapping-row Nd2Nz copies
        LocalTensor<half> b1 = qB1.AllocTensor<half>();
        for (uint32_t c = 0; c < t_.C; ++c) {
            for (uint32_t r = 0; r < rows; ++r) {
                const uint64_t src = ((static_cast<uint64_t>(n) * t_.C + c) * t_.H + h0 + r) * t_.W;
                DataCopy(b1[(c * t_.KH) * pPad * 16 + r * wo * 16], xGm[src],
                         Nd2NzParams(t_.KH, wo, t_.KW, t_.W, 1, pPad, 1, pPad * 16));
            }
        }
        qB1.EnQue(b1);
        b1 = qB1.DeQue<half>();
        LocalTensor<float> c1 = qC.AllocTensor<float>();
        for (uint32_t kb = 0; kb < groups_; kb += KB) {
            const uint32_t kb1 = Min(groups_ - kb, KB);
            LocalTensor<half> a2 = qA2.AllocTensor<half>();
            for (uint32_t i = 0; i < m1; ++i) {
                LoadData(a2[i * kb1 * 256], w1, LoadData2DParams(kb * m1 + i, kb1, m1, 0, 0, false, 0));
            }
            LocalTensor<half> b2 = qB2.AllocTensor<half>();
            LoadData(b2, b1, LoadData2DParams(kb * p1, kb1 * p1, 1, 0, 0, false, 0));
            qA2.EnQue(a2);
            qB2.EnQue(b2);
            a2 = qA2.DeQue<half>();
            b2 = qB2.DeQue<half>();
            Mmad(c1, a2, b2, MmadParams(t_.CO, P, kb1 * 16, 0, false, kb == 0));
            qA2.FreeTensor(a2);
            qB2.FreeTensor(b2);
        }
        qB1.FreeTensor(b1);
        qC.EnQue(c1);
        c1 = qC.DeQue<float>();
        FixpipeParamsV220 fp(P, t_.CO, coPad_, t_.HO * wo, false);
        fp.quantPre = QuantMode_t::F322F16;
        Fixpipe(yGm[static_cast<uint64_t>(n) * t_.CO * t_.HO * wo + h0 * wo], c1, fp);
        qC.FreeTensor(c1);
    }

    TPipe pipe;
    TBuf<TPosition::A1> wBuf;
    TQue<TPosition::B1, 2> qB1;
    TQue<TPosition::A2, 2> qA2;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 2> qC;
    GlobalTensor<half> xGm, wGm, yGm;
    ConvTilingData t_;
    uint32_t groups_ = 0, coPad_ = 0, pMax_ = 0;
};

extern "C" __global__ __aicore__ void conv2d_custom(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ConvTilingData, tilingData, tiling);
    KernelConv op;
    op.Init(x, w, y, tilingData);
    op.Process();
}
