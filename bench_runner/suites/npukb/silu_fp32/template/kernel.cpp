// silu_fp32: y = x * sigmoid(x) = x / (1 + exp(-x)).
// Tiling data from the host (silu_tiling.h).
#include "kernel_operator.h"
#include "silu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void silu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SiluTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
