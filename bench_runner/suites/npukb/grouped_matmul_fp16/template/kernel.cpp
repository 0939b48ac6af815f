// grouped_matmul_fp16: for each group g, rows [end[g-1], end[g]) of x [M, K] times w[g] [K, N]
// into the same rows of y [M, N] (half, float accumulation); group_list holds the cumulative
// ends (int64). Cube cores (AIC); tiling in gmm_tiling.h.
#include "kernel_operator.h"
#include "gmm_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void grouped_matmul_custom(GM_ADDR x, GM_ADDR w, GM_ADDR group_list, GM_ADDR y,
                                                            GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GroupedMatmulTilingData, tilingData, tiling);
    // TODO: read group_list, number the (group, row block, column block) tiles and take every
    // usedCores-th one: the cube path of a matmul with the group's rows and w[g].
    (void)tilingData;
}
