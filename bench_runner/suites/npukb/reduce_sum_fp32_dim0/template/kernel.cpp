// reduce_sum_fp32_dim0: y[n] = sum_m x[m, n]; tiling data from the host.
#include "kernel_operator.h"
#include "reduce_sum_dim0_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void reduce_sum_dim0_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ReduceSumDim0TilingData, tilingData, tiling);
    // TODO: for each tile of this core's columns: accumulate all M rows (strided DataCopyPad of
    // several rows at once, vector Add into an accumulator), copy the sums out.
    (void)tilingData;
}
