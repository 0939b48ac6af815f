// logical_and_bool: y = a && b on bool bytes.
// Tiling data from the host (logical_and_tiling.h).
#include "kernel_operator.h"
#include "logical_and_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void logical_and_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogicalAndTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
