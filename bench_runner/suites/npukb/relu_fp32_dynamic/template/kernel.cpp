// relu_fp32_dynamic: y = max(x, 0) for any N; tiling data from the host (relu_tiling.h).
#include "kernel_operator.h"
#include "relu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ReluTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles; DataCopyPad for the unaligned tail.
    (void)tilingData;
}
