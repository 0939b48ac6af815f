// gelu_erf_fp32: y = x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), erf approximated.
// Tiling data from the host (gelu_erf_tiling.h).
#include "kernel_operator.h"
#include "gelu_erf_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void gelu_erf_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GeluErfTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
