// batch_matmul_transb_fp16, expert version (cube core only). Each core walks its output tiles
// (batch, baseM rows, baseN columns). For a tile, K is moved GM -> L1 in stepK slices (DataCopy
// with Nd2NzParams: ND rows become NZ column blocks of 16 halves; the K tail of a row is
// zero-padded to 16), and each slice is fed to the cube in baseK pieces: A fractals L1 -> L0A as
// they are (Zz, one LoadData per 16 rows); B^T (N x K) in NZ already holds B's fractals in the
// Zn order L0B wants, so one LoadData without transpose moves a whole K piece. Mmad accumulates over K in L0C (float), Fixpipe writes the tile back
// as half (F322F16) in row-major order, clipped to the M / N tails. L1 and L0A/L0B have two
// buffers each (L0C two when a float tile fits twice), so loads, multiplies and the write-back
// of the previous tile overlap.
#include "kernel_operator.h"
#include "bmm_tiling.h"

using namespace AscendC;

class KernelMatmul {
  public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const BmmTilingData& t) {
        t_ = t;
        aGm.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(t.batch) * t.M * t.K);
        bGm.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(t.batch) * t.K * t.N);
        cGm.SetGlobalBuffer((__gm__ half*)c, static_cast<uint64_t>(t.batch) * t.M * t.N);
        pipe.InitBuffer(qA1, 2, t.baseM * t.stepK * sizeof(half));
        pipe.InitBuffer(qB1, 2, t.stepK * t.baseN * sizeof(half));
        pipe.InitBuffer(qA2, 2, t.baseM * t.baseK * sizeof(half));
        pipe.InitBuffer(qB2, 2, t.baseK * t.baseN * sizeof(half));
        // L0C (128 KiB) holds two float tiles of 128 x 128, one of 128 x 256.
        const uint32_t cBytes = t.baseM * t.baseN * sizeof(float);
        pipe.InitBuffer(qC, 2 * cBytes <= 128 * 1024 ? 2 : 1, cBytes);
    }

    __aicore__ inline void Process() {
        const uint32_t perBatch = t_.mTiles * t_.nTiles;
        const uint32_t tiles = t_.batch * perBatch;
        for (uint32_t tile = GetBlockIdx(); tile < tiles; tile += t_.usedCores) {
            const uint32_t bi = tile / perBatch, rest = tile % perBatch;
            Tile(bi, rest / t_.nTiles, rest % t_.nTiles);
        }
    }

  private:
    static __aicore__ inline uint32_t Up16(uint32_t x) { return (x + 15) / 16 * 16; }

    __aicore__ inline void Tile(uint32_t bi, uint32_t mt, uint32_t nt) {
        const uint64_t aBase = static_cast<uint64_t>(bi) * t_.M * t_.K;
        const uint64_t bBase = static_cast<uint64_t>(bi) * t_.N * t_.K;
        const uint64_t cBase = static_cast<uint64_t>(bi) * t_.M * t_.N;
        const uint32_t m0 = mt * t_.baseM, n0 = nt * t_.baseN;
        const uint32_t mLen = t_.M - m0 < t_.baseM ? t_.M - m0 : t_.baseM;
        const uint32_t nLen = t_.N - n0 < t_.baseN ? t_.N - n0 : t_.baseN;
        const uint32_t m1 = Up16(mLen) / 16, n1 = Up16(nLen) / 16;
        LocalTensor<float> c1 = qC.AllocTensor<float>();
        for (uint32_t kc = 0; kc < t_.K; kc += t_.stepK) {
            const uint32_t kLen = t_.K - kc < t_.stepK ? t_.K - kc : t_.stepK;
            // GM -> L1, ND -> NZ
            LocalTensor<half> a1 = qA1.AllocTensor<half>();
            LocalTensor<half> b1 = qB1.AllocTensor<half>();
            DataCopy(a1, aGm[aBase + static_cast<uint64_t>(m0) * t_.K + kc],
                     Nd2NzParams(1, mLen, kLen, 0, t_.K, Up16(mLen), 1, 0));
            DataCopy(b1, bGm[bBase + static_cast<uint64_t>(n0) * t_.K + kc],
                     Nd2NzParams(1, nLen, kLen, 0, t_.K, Up16(nLen), 1, 0));  // B^T rows: N
            qA1.EnQue(a1);
            qB1.EnQue(b1);
            a1 = qA1.DeQue<half>();
            b1 = qB1.DeQue<half>();
            for (uint32_t kb = 0; kb < kLen; kb += t_.baseK) {
                const uint32_t kbLen = kLen - kb < t_.baseK ? kLen - kb : t_.baseK;
                const uint32_t kb1 = Up16(kbLen) / 16;
                const uint32_t kbStart = kb / 16;
                // L1 -> L0A (Zz: one row of fractals per 16 rows of A)
                LocalTensor<half> a2 = qA2.AllocTensor<half>();
                for (uint32_t i = 0; i < m1; ++i) {
                    LoadData(a2[i * kb1 * 256], a1, LoadData2DParams(kbStart * m1 + i, kb1, m1, 0, 0, false, 0));
                }
                // L1 -> L0B: fractals (k block, n block) of B^T's NZ are already in Zn order
                LocalTensor<half> b2 = qB2.AllocTensor<half>();
                LoadData(b2, b1, LoadData2DParams(kbStart * n1, kb1 * n1, 1, 0, 0, false, 0));
                qA2.EnQue(a2);
                qB2.EnQue(b2);
                a2 = qA2.DeQue<half>();
                b2 = qB2.DeQue<half>();
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
        qC.EnQue(c1);
        c1 = qC.DeQue<float>();
        FixpipeParamsV220 fp;
        fp.nSize = nLen;
        fp.mSize = mLen;
        fp.srcStride = Up16(mLen);
        fp.dstStride = t_.N;
        fp.quantPre = QuantMode_t::F322F16;
        Fixpipe(cGm[cBase + static_cast<uint64_t>(m0) * t_.N + n0], c1, fp);
        qC.FreeTensor(c1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 2> qA1;
    TQue<TPosition::B1, 2> qB1;
    TQue<TPosition::A2, 2> qA2;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 2> qC;
    GlobalTensor<half> aGm, bGm, cGm;
    BmmTilingData t_;
};

extern "C" __global__ __aicore__ void batch_matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(BmmTilingData, tilingData, tiling);
    KernelMatmul op;
    op.Init(a, b, c, tilingData);
    op.Process();
}
