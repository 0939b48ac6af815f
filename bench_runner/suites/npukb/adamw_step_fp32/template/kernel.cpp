// adamw_step_fp32: one AdamW step, param / exp_avg / exp_avg_sq updated in place; tiling data
// (sizes and folded hyper-parameters) from the host.
#include "kernel_operator.h"
#include "adamw_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void adamw_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR exp_avg, GM_ADDR exp_avg_sq,
                                                   GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AdamWTilingData, tilingData, tiling);
    // TODO: for each tile of this core's slice: p *= decay; m = beta1 m + (1 - beta1) g;
    // v = beta2 v + (1 - beta2) g^2; p -= stepSize * m / (sqrt(v) * invSqrtBc2 + eps);
    // write p, m, v back to their own buffers.
    (void)tilingData;
}
