// hardsigmoid_fp16: y = clamp(x / 6 + 1/2, 0, 1) (half in/out).
// Tiling data from the host (hardsigmoid_tiling.h).
#include "kernel_operator.h"
#include "hardsigmoid_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void hardsigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(HardsigmoidTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
