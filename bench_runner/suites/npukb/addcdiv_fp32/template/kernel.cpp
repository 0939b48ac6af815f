// addcdiv_fp32: out = x + value * t1 / t2.
// Tiling data from the host (addcdiv_tiling.h).
#include "kernel_operator.h"
#include "addcdiv_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void addcdiv_custom(GM_ADDR x, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddcdivTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
