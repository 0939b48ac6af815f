// split_lastdim_fp32: y1 = x[:, :N1], y2 = x[:, N1:]; tiling data from the host.
#include "kernel_operator.h"
#include "split_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void split_custom(GM_ADDR x, GM_ADDR y1, GM_ADDR y2, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SplitTilingData, tilingData, tiling);
    // TODO: for this core's rows, move columns [0, N1) of x to y1 and [N1, N1 + N2) to y2
    // (DataCopyPad with row strides).
    (void)tilingData;
}
