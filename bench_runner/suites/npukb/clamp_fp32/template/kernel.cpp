// clamp_fp32: y = min(max(x, min_val), max_val) for any N; tiling data from the host (clamp_tiling.h).
#include "kernel_operator.h"
#include "clamp_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void clamp_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ClampTilingData, tilingData, tiling);
    // TODO: core GetBlockIdx() handles [GetBlockIdx() * blockLength, ...) of the N elements, in tiles of
    // tileLength; copy the unaligned last tile with DataCopyPad.
    (void)x; (void)y;
    (void)tilingData;
}
