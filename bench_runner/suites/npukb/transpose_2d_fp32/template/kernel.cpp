// transpose_2d_fp32: y[j, i] = x[i, j]; tiling data from the host.
#include "kernel_operator.h"
#include "transpose_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void transpose_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(TransposeTilingData, tilingData, tiling);
    // TODO: for each of this core's tiles: copy the tile of x in (strided DataCopyPad), transpose
    // it in UB (the emulator has no Transpose: e.g. a byte-offset Gather), copy it to y.
    (void)tilingData;
}
