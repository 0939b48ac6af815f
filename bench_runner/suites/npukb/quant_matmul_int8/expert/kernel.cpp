// quant_matmul_int8, expert version (cube core only). Each core walks its output tiles of
// baseM x baseN. K goes GM -> L1 in stepK slices (Nd2Nz: 32-int8 column blocks, the K tail
// zero-padded to 32), x's fractals L1 -> L0A as they are (Zz, one LoadData per 16 rows), w's
// (N x K) NZ fractals L1 -> L0B in one LoadData (already Zn), Mmad int8 -> int32 accumulating
// over K. The tile's scale entries come GM -> L1 with DataCopyPad and Fixpipe dequantises per
// column (VDEQF16) into half. L1 and L0A/L0B are double buffered.
#include "kernel_operator.h"
#include "qmm_tiling.h"

using namespace AscendC;

constexpr uint32_t C0 = 32;  // int8 elements per fractal row

__aicore__ inline uint32_t Up16(uint32_t x) { return (x + 15) / 16 * 16; }
__aicore__ inline uint32_t UpC0(uint32_t x) { return (x + C0 - 1) / C0 * C0; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

class KernelQuantMatmul {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR deq, GM_ADDR y, const QuantMatmulTilingData& t) {
        t_ = t;
        xGm.SetGlobalBuffer((__gm__ int8_t*)x, static_cast<uint64_t>(t.M) * t.K);
        wGm.SetGlobalBuffer((__gm__ int8_t*)w, static_cast<uint64_t>(t.N) * t.K);
        deqGm.SetGlobalBuffer((__gm__ uint64_t*)deq, t.N);
        yGm.SetGlobalBuffer((__gm__ half*)y, static_cast<uint64_t>(t.M) * t.N);
        pipe.InitBuffer(qA1, 2, t.baseM * t.stepK);
        pipe.InitBuffer(qB1, 2, t.baseN * t.stepK);
        pipe.InitBuffer(qA2, 2, t.baseM * t.baseK);
        pipe.InitBuffer(qB2, 2, t.baseN * t.baseK);
        pipe.InitBuffer(qC, 1, t.baseM * t.baseN * sizeof(int32_t));
        pipe.InitBuffer(scaleBuf, t.baseN * sizeof(uint64_t));
    }

    __aicore__ inline void Process() {
        const uint32_t tiles = t_.mTiles * t_.nTiles;
        for (uint32_t tile = GetBlockIdx(); tile < tiles; tile += t_.usedCores) {
            Tile(tile / t_.nTiles, tile % t_.nTiles);
        }
    }

  private:
    __aicore__ inline void Tile(uint32_t mt, uint32_t nt) {
        const uint32_t m0 = mt * t_.baseM, n0 = nt * t_.baseN;
        const uint32_t mLen = Min(t_.M - m0, t_.baseM), nLen = Min(t_.N - n0, t_.baseN);
        const uint32_t m1 = Up16(mLen) / 16, n1 = Up16(nLen) / 16;
        LocalTensor<int32_t> c1 = qC.AllocTensor<int32_t>();
        for (uint32_t kc = 0; kc < t_.K; kc += t_.stepK) {
            const uint32_t kLen = Min(t_.K - kc, t_.stepK);
            LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
            LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
            DataCopy(a1, xGm[static_cast<uint64_t>(m0) * t_.K + kc], Nd2NzParams(1, mLen, kLen, 0, t_.K, Up16(mLen), 1, 0));
            DataCopy(b1, wGm[static_cast<uint64_t>(n0) * t_.K + kc], Nd2NzParams(1, nLen, kLen, 0, t_.K, Up16(nLen), 1, 0));
            qA1.EnQue(a1);
            qB1.EnQue(b1);
            a1 = qA1.DeQue<int8_t>();
            b1 = qB1.DeQue<int8_t>();
            for (uint32_t kb = 0; kb < kLen; kb += t_.baseK) {
                const uint32_t kbLen = Min(kLen - kb, t_.baseK);
                const uint32_t kb1 = UpC0(kbLen) / C0, kbStart = kb / C0;
                LocalTensor<int8_t> a2 = qA2.AllocTensor<int8_t>();
                for (uint32_t r = 0; r < m1; ++r) {
                    LoadData(a2[r * kb1 * 16 * C0], a1, LoadData2DParams(kbStart * m1 + r, kb1, m1, 0, 0, false, 0));
                }
                LocalTensor<int8_t> b2 = qB2.AllocTensor<int8_t>();
                LoadData(b2, b1, LoadData2DParams(kbStart * n1, kb1 * n1, 1, 0, 0, false, 0));
                qA2.EnQue(a2);
                qB2.EnQue(b2);
                a2 = qA2.DeQue<int8_t>();
                b2 = qB2.DeQue<int8_t>();
                MmadParams mp;
                mp.m = mLen;
                mp.n = nLen;
                mp.k = kbLen;
                mp.cmatrixInitVal = (kc == 0 && kb == 0);
                Mmad(c1, a2, b2, mp);
                qA2.FreeTensor(a2);
                qB2.FreeTensor(b2);
            }
            qA1.FreeTensor(a1);
            qB1.FreeTensor(b1);
        }
        // the tile's per-column scales into L1
        LocalTensor<uint64_t> scale = scaleBuf.Get<uint64_t>();
        DataCopyPad(scale, deqGm[n0], DataCopyExtParams(1, nLen * sizeof(uint64_t), 0, 0, 0),
                    DataCopyPadExtParams<uint64_t>(false, 0, 0, 0));
        qC.EnQue(c1);
        c1 = qC.DeQue<int32_t>();
        FixpipeParamsV220 fp;
        fp.nSize = nLen;
        fp.mSize = mLen;
        fp.srcStride = Up16(mLen);
        fp.dstStride = t_.N;
        fp.quantPre = QuantMode_t::VDEQF16;
        Fixpipe(yGm[static_cast<uint64_t>(m0) * t_.N + n0], c1, scale, fp);
        qC.FreeTensor(c1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 2> qA1;
    TQue<TPosition::B1, 2> qB1;
    TQue<TPosition::A2, 2> qA2;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 1> qC;
    TBuf<TPosition::C1> scaleBuf;
    GlobalTensor<int8_t> xGm, wGm;
    GlobalTensor<uint64_t> deqGm;
    GlobalTensor<half> yGm;
    QuantMatmulTilingData t_;
};

extern "C" __global__ __aicore__ void quant_matmul_custom(GM_ADDR x, GM_ADDR w, GM_ADDR deq_scale, GM_ADDR y,
                                                          GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(QuantMatmulTilingData, tilingData, tiling);
    KernelQuantMatmul op;
    op.Init(x, w, deq_scale, y, tilingData);
    op.Process();
}
