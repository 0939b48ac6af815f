// batch_matmul_transb_fp16: c[i] = a[i] @ b[i]^T with a [batch, M, K], b [batch, N, K] and
// c [batch, M, N] in half, accumulated in float on the cube unit (AIC). Tiling from the host
// (bmm_tiling.h).
#include "kernel_operator.h"
#include "bmm_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void batch_matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(BmmTilingData, tilingData, tiling);
    // TODO: for each (batch, M tile, N tile) of this core: GM -> L1 (Nd2Nz; B^T rows are N),
    // L1 -> L0A / L0B (B^T's NZ fractals are already in the Zn order: no transpose), Mmad over K,
    // Fixpipe to GM (F322F16) with the tails.
    (void)tilingData;
}
