// matmul_api_bias_fp16, expert version: the high-level Matmul API on the cube cores. Core i takes
// output block (i % mBlocks, i / mBlocks) of singleCoreM x singleCoreN (from the host's
// MultiCoreMatmulTiling), clips it at the edges with SetTail and lets IterateAll run the tiled
// cube path (GM -> L1 -> L0A/L0B -> Mmad -> Fixpipe) with the bias added in L0C.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "mm_api_tiling.h"

using namespace AscendC;

using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void matmul_api_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                        GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MatmulApiTilingData, tilingData, tiling);
    const TCubeTiling& t = tilingData.cube;
    if (GetBlockIdx() >= static_cast<uint32_t>(t.usedCoreNum)) return;
    const uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    const uint32_t mi = GetBlockIdx() % mBlocks, ni = GetBlockIdx() / mBlocks;
    const uint32_t m0 = mi * t.singleCoreM, n0 = ni * t.singleCoreN;
    const int32_t tailM = t.M - static_cast<int32_t>(m0) < t.singleCoreM ? t.M - static_cast<int32_t>(m0) : t.singleCoreM;
    const int32_t tailN = t.N - static_cast<int32_t>(n0) < t.singleCoreN ? t.N - static_cast<int32_t>(n0) : t.singleCoreN;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(t.M) * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(t.Kb) * t.N);
    biasGm.SetGlobalBuffer((__gm__ float*)bias, t.N);
    cGm.SetGlobalBuffer((__gm__ float*)c, static_cast<uint64_t>(t.M) * t.N);
    TPipe pipe;
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm[static_cast<uint64_t>(m0) * t.Ka]);
    mm.SetTensorB(bGm[n0]);
    mm.SetBias(biasGm[n0]);
    mm.SetTail(tailM, tailN);
    mm.IterateAll(cGm[static_cast<uint64_t>(m0) * t.N + n0]);
    mm.End();
}
