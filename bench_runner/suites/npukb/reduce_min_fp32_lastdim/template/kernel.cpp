// reduce_min_fp32_lastdim: y[m] = min_n x[m, n]; tiling data from the host.
#include "kernel_operator.h"
#include "reduce_min_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void reduce_min_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ReduceMinTilingData, tilingData, tiling);
    // TODO: for each of this core's rows, reduce the row chunk by chunk (DataCopyPad in, a
    // vector reduction per chunk, combine the chunk results), then write this core's results.
    (void)tilingData;
}
