// grouped_matmul_fp16, expert version (cube core only). The scalar unit reads group_list; the
// output tiles are numbered group by group (row blocks of baseM within the group, then column
// blocks of baseN) and core c takes tiles c, c + usedCores, ... Each tile is the matmul cube path:
// K in stepK slices GM -> L1 (Nd2Nz), baseK pieces L1 -> L0A (Zz) / L0B (Zn, transposed
// fractals), Mmad accumulating in L0C, Fixpipe (F322F16) into the group's rows of y. L1 and
// L0A/L0B are double buffered.
#include "kernel_operator.h"
#include "gmm_tiling.h"

using namespace AscendC;

class KernelMatmul {
  public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR groups, GM_ADDR c, const GroupedMatmulTilingData& t) {
        t_ = t;
        aGm.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(t.M) * t.K);
        bGm.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(t.G) * t.K * t.N);
        gGm.SetGlobalBuffer((__gm__ int64_t*)groups, t.G);
        cGm.SetGlobalBuffer((__gm__ half*)c, static_cast<uint64_t>(t.M) * t.N);
        pipe.InitBuffer(qA1, 2, t.baseM * t.stepK * sizeof(half));
        pipe.InitBuffer(qB1, 2, t.stepK * t.baseN * sizeof(half));
        pipe.InitBuffer(qA2, 2, t.baseM * t.baseK * sizeof(half));
        pipe.InitBuffer(qB2, 2, t.baseK * t.baseN * sizeof(half));
        // L0C (128 KiB) holds two float tiles of 128 x 128, one of 128 x 256.
        const uint32_t cBytes = t.baseM * t.baseN * sizeof(float);
        pipe.InitBuffer(qC, 2 * cBytes <= 128 * 1024 ? 2 : 1, cBytes);
    }

    __aicore__ inline void Process() {
        uint32_t tile = 0, start = 0;
        for (uint32_t g = 0; g < t_.G; ++g) {
            const uint32_t end = static_cast<uint32_t>(gGm.GetValue(g));
            const uint64_t wBase = static_cast<uint64_t>(g) * t_.K * t_.N;
            for (uint32_t r = start; r < end; r += t_.baseM) {
                for (uint32_t nt = 0; nt < t_.nTiles; ++nt, ++tile) {
                    if (tile % t_.usedCores != GetBlockIdx()) continue;
                    Tile(r, end - r < t_.baseM ? end - r : t_.baseM, nt * t_.baseN, wBase);
                }
            }
            start = end;
        }
    }

  private:
    static __aicore__ inline uint32_t Up16(uint32_t x) { return (x + 15) / 16 * 16; }

    __aicore__ inline void Tile(uint32_t m0, uint32_t mLen, uint32_t n0, uint64_t wBase) {
        const uint32_t nLen = t_.N - n0 < t_.baseN ? t_.N - n0 : t_.baseN;
        const uint32_t m1 = Up16(mLen) / 16, n1 = Up16(nLen) / 16;
        LocalTensor<float> c1 = qC.AllocTensor<float>();
        for (uint32_t kc = 0; kc < t_.K; kc += t_.stepK) {
            const uint32_t kLen = t_.K - kc < t_.stepK ? t_.K - kc : t_.stepK;
            const uint32_t kBlocks = Up16(kLen) / 16;
            // GM -> L1, ND -> NZ
            LocalTensor<half> a1 = qA1.AllocTensor<half>();
            LocalTensor<half> b1 = qB1.AllocTensor<half>();
            DataCopy(a1, aGm[static_cast<uint64_t>(m0) * t_.K + kc],
                     Nd2NzParams(1, mLen, kLen, 0, t_.K, Up16(mLen), 1, 0));
            DataCopy(b1, bGm[wBase + static_cast<uint64_t>(kc) * t_.N + n0],
                     Nd2NzParams(1, kLen, nLen, 0, t_.N, Up16(kLen), 1, 0));
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
                // L1 -> L0B (Zn: each fractal transposed)
                LocalTensor<half> b2 = qB2.AllocTensor<half>();
                for (uint32_t j = 0; j < kb1; ++j) {
                    LoadData(b2[j * n1 * 256], b1, LoadData2DParams(kbStart + j, n1, kBlocks, 0, 0, true, 0));
                }
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
        Fixpipe(cGm[static_cast<uint64_t>(m0) * t_.N + n0], c1, fp);
        qC.FreeTensor(c1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 2> qA1;
    TQue<TPosition::B1, 2> qB1;
    TQue<TPosition::A2, 2> qA2;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 2> qC;
    GlobalTensor<half> aGm, bGm, cGm;
    GlobalTensor<int64_t> gGm;
    GroupedMatmulTilingData t_;
};

extern "C" __global__ __aicore__ void grouped_matmul_custom(GM_ADDR x, GM_ADDR w, GM_ADDR group_list, GM_ADDR y,
                                                            GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GroupedMatmulTilingData, tilingData, tiling);
    KernelMatmul op;
    op.Init(x, w, group_list, y, tilingData);
    op.Process();
}
