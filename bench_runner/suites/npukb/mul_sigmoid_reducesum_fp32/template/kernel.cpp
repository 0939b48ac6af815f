// mul_sigmoid_reducesum_fp32: out[m] = sum_k x[m, k] / (1 + exp(-y[m, k])); tiling data from
// the host.
#include "kernel_operator.h"
#include "mul_sigmoid_reducesum_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void mul_sigmoid_reducesum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MulSigmoidReduceSumTilingData, tilingData, tiling);
    // TODO: for this core's rows (rowsPerTile at a time, or in column chunks for long rows):
    // copy x and y in, x * sigmoid(y) from Exp / Adds / Div, ReduceSum per row, write the sums.
    (void)tilingData;
}
