// avgpool2d_fp32: y = avg_pool2d(x, kernel, stride, padding, count_include_pad) on NCHW floats.
#include "kernel_operator.h"
#include "avgpool2d_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void avgpool2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AvgPool2dTilingData, tilingData, tiling);
    // TODO: for each of this core's work items (plane, band of output rows): copy the input rows
    // the band needs into UB with a zero border, sum the kernel x kernel window positions (e.g.
    // Gather with precomputed offsets + Add), divide by the window size, copy the band out.
    (void)tilingData;
}
