// The high-level Matmul API on AI cores: C = A @ B (+ bias), each core its singleCoreM x
// singleCoreN block, tails by SetTail, IterateAll or Iterate/GetTensorC. A, B, C in GM.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_hl_tiling.h"
using namespace AscendC;

#ifndef ELEM
#define ELEM half
#endif
#ifndef OUT
#define OUT float
#endif

using aType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, ELEM>;
using bType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, ELEM>;
using cType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, OUT>;
using biasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(optiling::MatmulHlTiling, td, tiling);
    const TCubeTiling& t = td.cube;
    if (GetBlockIdx() >= static_cast<uint32_t>(t.usedCoreNum)) return;
    const int mDim = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    const int mi = GetBlockIdx() % mDim, ni = GetBlockIdx() / mDim;
    const int m0 = mi * t.singleCoreM, n0 = ni * t.singleCoreN;
    const int tailM = t.M - m0 < t.singleCoreM ? t.M - m0 : t.singleCoreM;
    const int tailN = t.N - n0 < t.singleCoreN ? t.N - n0 : t.singleCoreN;
    GlobalTensor<ELEM> ga, gb;
    GlobalTensor<OUT> gc;
    GlobalTensor<float> gbias;
    ga.SetGlobalBuffer((__gm__ ELEM *)a);
    gb.SetGlobalBuffer((__gm__ ELEM *)b);
    gc.SetGlobalBuffer((__gm__ OUT *)c);
    gbias.SetGlobalBuffer((__gm__ float *)bias);
    TPipe pipe;
    matmul::Matmul<aType, bType, cType, biasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    // A is M x K (or K x M when transposed), B is K x N (or N x K)
    mm.SetTensorA(ga[td.transA ? m0 : static_cast<uint64_t>(m0) * t.Ka], td.transA != 0);
    mm.SetTensorB(gb[td.transB ? static_cast<uint64_t>(n0) * t.Kb : n0], td.transB != 0);
    if (td.bias) mm.SetBias(gbias[n0]);
    mm.SetTail(tailM, tailN);
    if (td.iterate) {
        while (mm.Iterate()) mm.GetTensorC(gc[static_cast<uint64_t>(m0) * t.N + n0]);
    } else {
        mm.IterateAll(gc[static_cast<uint64_t>(m0) * t.N + n0]);
    }
    mm.End();
}
