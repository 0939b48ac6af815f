// mse_loss_fp32: y[0] = mean((x - t)^2) over all N elements; tiling data from the host.
#include "kernel_operator.h"
#include "mse_loss_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR x, GM_ADDR t, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MseLossTilingData, tilingData, tiling);
    // TODO: each core sums (x - t)^2 over its range; combine the per-core sums into y[0] (which
    // arrives filled with garbage) and scale by 1/N.
    (void)tilingData;
}
