// logical_not_bool: y = !x on bool bytes.
// Tiling data from the host (logical_not_tiling.h).
#include "kernel_operator.h"
#include "logical_not_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void logical_not_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogicalNotTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
