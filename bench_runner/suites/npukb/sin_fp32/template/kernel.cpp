// sin_fp32: y = sin(x) for any N; tiling data from the host (sin_tiling.h).
#include "kernel_operator.h"
#include "sin_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void sin_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SinTilingData, tilingData, tiling);
    // TODO: core GetBlockIdx() handles [GetBlockIdx() * blockLength, ...) of the N elements, in tiles of
    // tileLength; copy the unaligned last tile with DataCopyPad.
    (void)x; (void)y;
    (void)tilingData;
}
