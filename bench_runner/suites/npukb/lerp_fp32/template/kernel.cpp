// lerp_fp32: out = start + weight * (end - start), weight a tensor.
// Tiling data from the host (lerp_tiling.h).
#include "kernel_operator.h"
#include "lerp_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void lerp_custom(GM_ADDR start, GM_ADDR end, GM_ADDR weight, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LerpTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
