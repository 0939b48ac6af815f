// dynamic_quant_int8: per row, amax = max|x|, y = rint(x * (127 / amax)) as int8,
// scale = amax / 127; tiling data from the host.
#include "kernel_operator.h"
#include "dynamic_quant_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void dynamic_quant_custom(GM_ADDR x, GM_ADDR y, GM_ADDR scale, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(DynamicQuantTilingData, tilingData, tiling);
    // TODO: for each of this core's rows: amax over the row (Cast to float, Abs, ReduceMax),
    // then y = rint(x * (127 / amax)) converted to int8, and scale = amax / 127.
    (void)tilingData;
}
