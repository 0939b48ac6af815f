// scatter_add_rows_fp32: y = x; y[idx[k], :] += src[k, :] for k = 0 .. K-1; tiling data from the
// host.
#include "kernel_operator.h"
#include "scatter_add_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void scatter_add_rows_custom(GM_ADDR x, GM_ADDR idx, GM_ADDR src, GM_ADDR y,
                                                              GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScatterAddTilingData, tilingData, tiling);
    // TODO: for each block of this core's output rows: load the rows of x, scan idx, add every
    // src row whose index falls in the block (in increasing k), write the block to y.
    (void)tilingData;
}
