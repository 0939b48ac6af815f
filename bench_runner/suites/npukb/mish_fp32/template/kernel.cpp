// mish_fp32: y = x * tanh(softplus(x)).
// Tiling data from the host (mish_tiling.h).
#include "kernel_operator.h"
#include "mish_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void mish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MishTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
