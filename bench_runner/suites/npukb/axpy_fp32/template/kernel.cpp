// axpy_fp32: y = alpha * x + y, in place.
// Tiling data from the host (axpy_tiling.h).
#include "kernel_operator.h"
#include "axpy_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AxpyTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
