// leaky_relu_fp16: y = x >= 0 ? x : negative_slope * x (half).
// Tiling data from the host (leaky_relu_tiling.h).
#include "kernel_operator.h"
#include "leaky_relu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LeakyReluTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
