// sgd_momentum_fp32: one SGD-with-momentum step, param and momentum_buf updated in place;
// tiling data (sizes and hyper-parameters) from the host.
#include "kernel_operator.h"
#include "sgd_momentum_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void sgd_momentum_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR momentum_buf,
                                                          GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SgdMomentumTilingData, tilingData, tiling);
    // TODO: for each tile of this core's slice: copy param, grad and momentum_buf in,
    // d = grad + weight_decay * param; buf = momentum * buf + (1 - dampening) * d;
    // d = nesterov ? d + momentum * buf : buf; param -= lr * d; copy param and buf back.
    (void)tilingData;
}
