// hardswish_fp16: y = x * clamp(x + 3, 0, 6) / 6 (half in/out).
// Tiling data from the host (hardswish_tiling.h).
#include "kernel_operator.h"
#include "hardswish_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void hardswish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(HardswishTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
