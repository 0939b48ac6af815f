// addcmul_fp16: out = x + value * t1 * t2 (half in/out, float32 inside).
// Tiling data from the host (addcmul_tiling.h).
#include "kernel_operator.h"
#include "addcmul_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void addcmul_custom(GM_ADDR x, GM_ADDR t1, GM_ADDR t2, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddcmulTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
