// swiglu_fp16: y = act(a) * b with a = x[:, :H], b = x[:, H:], silu(a) = a / (1 + exp(-a)); tiling data from the host.
#include "kernel_operator.h"
#include "swiglu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void swiglu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SwigluTilingData, tilingData, tiling);
    // TODO: for each tile of this core's rows: copy the a and b parts in (strided DataCopyPad),
    // compute act(a) * b, copy the tile out.
    (void)tilingData;
}
