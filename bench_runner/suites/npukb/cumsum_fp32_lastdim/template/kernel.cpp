// cumsum_fp32_lastdim: y[m, n] = sum_{k <= n} x[m, k]; tiling data from the host.
#include "kernel_operator.h"
#include "cumsum_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void cumsum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(CumsumTilingData, tilingData, tiling);
    // TODO: for this core's rows, in tiles of `lanes` rows x `tileCols` columns: bring the tile in,
    // scan it along the columns with the rows as vector lanes (carrying each row's running sum
    // from one column tile to the next), write it out.
    (void)tilingData;
}
