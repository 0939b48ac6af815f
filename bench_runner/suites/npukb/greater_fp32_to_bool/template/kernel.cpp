// greater_fp32_to_bool: y = a > b (float32 in, bool out).
// Tiling data from the host (greater_tiling.h).
#include "kernel_operator.h"
#include "greater_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void greater_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GreaterTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
