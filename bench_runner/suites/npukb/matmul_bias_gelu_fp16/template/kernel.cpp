// matmul_bias_gelu_fp16: y = gelu(a @ b + bias), a [M, K], b [K, N], bias [N], y [M, N] in half.
// A MIX kernel (1 AIC + 2 AIV per block): the cube computes the product, the vector cores the
// epilogue. Tiling data from the host (mm_gelu_tiling.h); workspace for the hand-over.
#include "kernel_operator.h"
#include "mm_gelu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_bias_gelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MatmulGeluTilingData, tilingData, tiling);
    // TODO: if ASCEND_IS_AIC: output tiles GM -> L1 -> L0A/L0B -> Mmad -> Fixpipe (float) into
    // the workspace, then CrossCoreSetFlag; if ASCEND_IS_AIV: CrossCoreWaitFlag, read the tile's
    // rows, add the bias, GELU, cast to half, write y.
    (void)tilingData;
}
