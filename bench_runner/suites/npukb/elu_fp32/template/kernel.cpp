// elu_fp32: y = x > 0 ? x : alpha * (exp(x) - 1).
// Tiling data from the host (elu_tiling.h).
#include "kernel_operator.h"
#include "elu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void elu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(EluTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
