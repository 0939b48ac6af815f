// repeat_rows_fp16: y[m, :] = x[0, :] for every m; tiling data from the host.
#include "kernel_operator.h"
#include "repeat_rows_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void repeat_rows_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RepeatRowsTilingData, tilingData, tiling);
    // TODO: for each chunk of tileCols columns: copy the chunk of x in (DataCopyPad), replicate
    // it tileRows times in the Unified Buffer, write this core's rows with strided DataCopyPad.
    (void)tilingData;
}
