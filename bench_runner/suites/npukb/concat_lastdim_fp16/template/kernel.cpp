// concat_lastdim_fp16: y[m, :] = [a[m, :], b[m, :]]; tiling data from the host.
#include "kernel_operator.h"
#include "concat_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void concat_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ConcatTilingData, tilingData, tiling);
    // TODO: for this core's rows, move blocks of a to columns [0, N1) and blocks of b to
    // columns [N1, N1 + N2) of y (DataCopyPad with row strides).
    (void)tilingData;
}
