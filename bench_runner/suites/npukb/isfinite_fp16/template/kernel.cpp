// isfinite_fp16: y = isfinite(x) (half in, bool out).
// Tiling data from the host (isfinite_tiling.h).
#include "kernel_operator.h"
#include "isfinite_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void isfinite_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(IsfiniteTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
