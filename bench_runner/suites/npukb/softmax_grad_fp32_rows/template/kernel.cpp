// softmax_grad_fp32_rows: dx = y * (dy - sum(dy * y)) over the last dimension; tiling data from
// the host.
#include "kernel_operator.h"
#include "softmax_grad_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void softmax_grad_custom(GM_ADDR y, GM_ADDR dy, GM_ADDR dx,
                                                          GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SoftmaxGradTilingData, tilingData, tiling);
    // TODO: for each of this core's rows: copy y and dy in (DataCopyPad), Mul, ReduceSum of the
    // product, Adds(dy, -sum), Mul by y, copy dx out.
    (void)tilingData;
}
