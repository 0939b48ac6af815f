// arange_fp32: y[i] = start + i * step (x only gives the length).
// Tiling data from the host (arange_tiling.h).
#include "kernel_operator.h"
#include "arange_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void arange_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ArangeTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
