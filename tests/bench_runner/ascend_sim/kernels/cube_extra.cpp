// Cube extras on one AI core. QUANT: int8 A (M x K) x int8 B^T (N x K) -> int32 L0C, Fixpipe
// VDEQF16 with a per-column uint64 scale table in L1 -> half C. BIAS: half A x half B^T with a
// float bias (GM -> C1 -> C2 bias table) through the Mmad bias overload -> float C.
// Buffers: a, b, c, extra (scale table or bias), p (int32: M, K, N).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t MAXD = 128;

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR extra, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const uint32_t M = p.GetValue(0), K = p.GetValue(1), N = p.GetValue(2);
#ifdef QUANT
    using E = int8_t;
    using A = int32_t;
    using O = half;
#else
    using E = half;
    using A = float;
    using O = float;
#endif
    constexpr uint32_t C0 = 32 / sizeof(E);
    const uint32_t Mp = (M + 15) / 16 * 16, Np = (N + 15) / 16 * 16;
    const uint32_t k1 = (K + C0 - 1) / C0, m1 = Mp / 16, n1 = Np / 16;
    GlobalTensor<E> ga, gb;
    GlobalTensor<O> gc;
    ga.SetGlobalBuffer((__gm__ E *)a);
    gb.SetGlobalBuffer((__gm__ E *)b);
    gc.SetGlobalBuffer((__gm__ O *)c);
    TPipe pipe;
    TBuf<TPosition::A1> ta1, tx1;
    TBuf<TPosition::B1> tb1;
    TBuf<TPosition::A2> ta2;
    TBuf<TPosition::B2> tb2;
    TBuf<TPosition::CO1> tc;
    pipe.InitBuffer(ta1, MAXD * MAXD * sizeof(E));
    pipe.InitBuffer(tb1, MAXD * MAXD * sizeof(E));
    pipe.InitBuffer(tx1, MAXD * 8);
    pipe.InitBuffer(ta2, MAXD * MAXD * sizeof(E));
    pipe.InitBuffer(tb2, MAXD * MAXD * sizeof(E));
    pipe.InitBuffer(tc, MAXD * MAXD * 4);
    LocalTensor<E> a1 = ta1.Get<E>(), b1 = tb1.Get<E>(), a2 = ta2.Get<E>(), b2 = tb2.Get<E>();
    LocalTensor<A> c1 = tc.Get<A>();
    DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, Mp, 1, 0));
    DataCopy(b1, gb, Nd2NzParams(1, N, K, 0, K, Np, 1, 0));
    for (uint32_t i = 0; i < m1; ++i) {
        LoadData(a2[i * k1 * 16 * C0], a1, LoadData2DParams(i, k1, m1, 0, 0, false, 0));
    }
    LoadData(b2, b1, LoadData2DParams(0, k1 * n1, 1, 0, 0, false, 0));
    MmadParams mp(M, N, K, 0, false, true);
#ifdef QUANT
    Mmad(c1, a2, b2, mp);
    LocalTensor<uint64_t> scale = tx1.Get<uint64_t>();
    GlobalTensor<uint64_t> gs;
    gs.SetGlobalBuffer((__gm__ uint64_t *)extra);
    DataCopy(scale, gs, Np);
    FixpipeParamsV220 fp(N, M, Mp, N, false);
    fp.quantPre = QuantMode_t::VDEQF16;
    Fixpipe(gc, c1, scale, fp);
#else
    TBuf<TPosition::C2> tbt;
    pipe.InitBuffer(tbt, MAXD * 4);
    LocalTensor<float> bias1 = tx1.Get<float>();
    LocalTensor<float> bias2 = tbt.Get<float>();
    GlobalTensor<float> gbias;
    gbias.SetGlobalBuffer((__gm__ float *)extra);
    DataCopy(bias1, gbias, Np);
    DataCopy(bias2, bias1, Np);
    mp.cmatrixSource = true;
    Mmad(c1, a2, b2, bias2, mp);
    Fixpipe(gc, c1, FixpipeParamsV220(N, M, Mp, N, true));  // with ReLU
#endif
}
