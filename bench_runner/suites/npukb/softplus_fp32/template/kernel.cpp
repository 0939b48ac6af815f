// softplus_fp32: y = beta*x > threshold ? x : log(1 + exp(beta*x)) / beta.
// Tiling data from the host (softplus_tiling.h).
#include "kernel_operator.h"
#include "softplus_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void softplus_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SoftplusTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
