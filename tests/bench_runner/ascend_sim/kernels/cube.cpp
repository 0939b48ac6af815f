// The cube path on one AI core: GM -> L1 (Nd2Nz), L1 -> L0A/L0B (LoadData, with transpose),
// Mmad, Fixpipe L0C -> GM. Buffers: a (M x K), b (K x N, or N x K when transposed), c (out),
// p (int32 params: op, M, K, N, relu, scale bits, layout). ELEM selects half / float / int8_t.
#include "kernel_operator.h"
using namespace AscendC;

#ifndef ELEM
#define ELEM half
#endif
#ifndef ACC
#define ACC float
#endif
#ifndef OUT
#define OUT float
#endif

constexpr uint32_t MAXD = 128;
constexpr uint32_t C0 = 32 / sizeof(ELEM);

__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 16);
    const int32_t op = p.GetValue(0);
    const uint32_t M = p.GetValue(1), K = p.GetValue(2), N = p.GetValue(3);
    const bool relu = p.GetValue(4) != 0;
    const uint32_t scaleBits = static_cast<uint32_t>(p.GetValue(5));
    GlobalTensor<ELEM> ga, gb;
    GlobalTensor<OUT> gc;
    ga.SetGlobalBuffer((__gm__ ELEM *)a);
    gb.SetGlobalBuffer((__gm__ ELEM *)b);
    gc.SetGlobalBuffer((__gm__ OUT *)c);

    const uint32_t Mp = Ceil(M, 16), Np = Ceil(N, 16);
    const uint32_t Kp = Ceil(K, C0 > 16 ? C0 : 16);  // rows of B in L1 (16-aligned; int8: 32)
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, MAXD * MAXD * sizeof(ELEM));
    pipe.InitBuffer(qb1, 1, MAXD * MAXD * sizeof(ELEM));
    pipe.InitBuffer(qa2, 1, MAXD * MAXD * sizeof(ELEM));
    pipe.InitBuffer(qb2, 1, MAXD * MAXD * sizeof(ELEM));
    pipe.InitBuffer(qc, 1, MAXD * MAXD * sizeof(ACC));

    if (op == 9) {  // Nd2Nz layout straight back to GM (L1 -> GM)
        LocalTensor<ELEM> a1 = qa1.AllocTensor<ELEM>();
        DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, Mp, 1, 0));
        qa1.EnQue(a1);
        a1 = qa1.DeQue<ELEM>();
        GlobalTensor<ELEM> gout;
        gout.SetGlobalBuffer((__gm__ ELEM *)c);
        DataCopy(gout, a1, Mp * Ceil(K, C0));
        qa1.FreeTensor(a1);
        return;
    }

    // ---- GM -> L1 (ND -> NZ) ----
    const bool transB = (op == 3);
    // op 4: B's 8/32-bit fractal pairs through LoadDataWithTranspose, as Catlass loads them: float
    // from zZ (fractals row-major: a pair sits side by side), int8 from NZ (a pair is stacked).
    // K and N multiples of 16 (float) or 32 (int8).
    const bool pairs = (op == 4);
    LocalTensor<ELEM> a1 = qa1.AllocTensor<ELEM>();
    LocalTensor<ELEM> b1 = qb1.AllocTensor<ELEM>();
    DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, Mp, 1, 0));
    if (pairs && sizeof(ELEM) == 4) {
        for (uint32_t kb = 0; kb < K / 16; ++kb) {  // zZ: one row of fractals per 16 rows of B
            DataCopy(b1[kb * 16 * N], gb[kb * 16 * N], Nd2NzParams(1, 16, N, 0, N, 16, 1, 0));
        }
    } else if (transB) {
        DataCopy(b1, gb, Nd2NzParams(1, N, K, 0, K, Np, 1, 0));  // B^T: N x K
    } else {
        DataCopy(b1, gb, Nd2NzParams(1, K, N, 0, N, Kp, 1, 0));
    }
    qa1.EnQue(a1);
    qb1.EnQue(b1);
    a1 = qa1.DeQue<ELEM>();
    b1 = qb1.DeQue<ELEM>();

    // ---- L1 -> L0A (Zz) / L0B (Zn), K blocks [kb0, kb0 + kbn) of C0 columns ----
    const uint32_t m1 = Mp / 16, n1 = Np / 16, kb1 = Kp / 16;
    auto load = [&](LocalTensor<ELEM>& a2, LocalTensor<ELEM>& b2, uint32_t kb0, uint32_t kbn) {
        for (uint32_t i = 0; i < m1; ++i) {
            LoadData(a2[i * kbn * 16 * C0], a1, LoadData2DParams(kb0 * m1 + i, kbn, m1, 0, 0, false, 0));
        }
        if (pairs) {  // kb0 == 0, kbn == every K block: the whole of B
            if (sizeof(ELEM) == 4) {  // a 16 x 16 square per repeat: two k-blocks of Zn
                for (uint32_t i = 0; i < K / 16; ++i) {
                    LoadDataWithTranspose(b2[i * 2 * n1 * 128], b1[i * 16 * N],
                                          LoadData2dTransposeParams(0, n1, 1, 0, n1 - 1));
                }
            } else {  // int8: a 32 x 32 square per repeat: two n-blocks of one k-block of Zn
                for (uint32_t j = 0; j < K / 32; ++j) {
                    LoadDataWithTranspose(b2[j * n1 * 512], b1[j * 2 * 512],
                                          LoadData2dTransposeParams(0, N / 32, kb1 / 2, 1, 0));
                }
            }
        } else if (transB) {
            LoadData(b2, b1, LoadData2DParams(kb0 * n1, kbn * n1, 1, 0, 0, false, 0));
        } else {  // 16-bit only: K x N in L1, transpose each fractal into Zn
            for (uint32_t j = 0; j < kbn; ++j) {
#ifdef WITH_TRANSPOSE_API
                LoadDataWithTranspose(b2[j * n1 * 256], b1, LoadData2dTransposeParams(kb0 + j, n1, kb1, 0, 0));
#else
                LoadData(b2[j * n1 * 256], b1, LoadData2DParams(kb0 + j, n1, kb1, 0, 0, true, 0));
#endif
            }
        }
    };
    const uint32_t kblocks = Ceil(K, C0) / C0;
    const uint32_t split = (op == 2) ? kblocks / 2 : kblocks;  // K blocks of the first Mmad
    LocalTensor<ACC> c1 = qc.AllocTensor<ACC>();
    for (uint32_t part = 0; part < (op == 2 ? 2u : 1u); ++part) {
        const uint32_t kb0 = part == 0 ? 0 : split;
        const uint32_t kbn = part == 0 ? split : kblocks - split;
        const uint32_t kk = part == 0 ? (op == 2 ? split * C0 : K) : K - split * C0;
        LocalTensor<ELEM> a2 = qa2.AllocTensor<ELEM>();
        LocalTensor<ELEM> b2 = qb2.AllocTensor<ELEM>();
        load(a2, b2, kb0, kbn);
        qa2.EnQue(a2);
        qb2.EnQue(b2);
        a2 = qa2.DeQue<ELEM>();
        b2 = qb2.DeQue<ELEM>();
        MmadParams mp;
        mp.m = M;
        mp.n = N;
        mp.k = kk;
        mp.cmatrixInitVal = (part == 0);  // second part accumulates onto L0C
        Mmad(c1, a2, b2, mp);
        qa2.FreeTensor(a2);
        qb2.FreeTensor(b2);
    }
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);
    qc.EnQue(c1);
    c1 = qc.DeQue<ACC>();

    // ---- Fixpipe L0C -> GM ----
    FixpipeParamsV220 fp;
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = Mp;
    fp.dstStride = N;
    fp.reluEn = relu;
    fp.deqScalar = scaleBits;
    if (std::is_same<OUT, half>::value) fp.quantPre = std::is_same<ACC, float>::value ? QuantMode_t::F322F16 : QuantMode_t::DEQF16;
    if (op == 8) {  // NZ output: 16-column blocks of Mp rows
        fp.dstStride = Mp * 16 * sizeof(OUT) / 32;
        Fixpipe<OUT, ACC, CFG_NZ>(gc, c1, fp);
    } else {
        Fixpipe(gc, c1, fp);
    }
    qc.FreeTensor(c1);
}
