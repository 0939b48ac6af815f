// argmin_fp16_lastdim: y[m] = the smallest n with x[m, n] = min_k x[m, k]; tiling data from the host.
#include "kernel_operator.h"
#include "argmin_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void argmin_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ArgMinTilingData, tilingData, tiling);
    // TODO: for each of this core's rows, reduce the row chunk by chunk (DataCopyPad in, a
    // vector reduction per chunk, combine the chunk results), then write this core's results.
    (void)tilingData;
}
