// fast_gelu_fp16: y = x / (1 + exp(-1.702 * x))  (= x * sigmoid(1.702 x), CANN's FastGelu); tiling data from the host.
#include "kernel_operator.h"
#include "fast_gelu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void fast_gelu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(FastGeluTilingData, tilingData, tiling);
    // TODO: this core's range [GetBlockIdx() * blockLength, ...) in tiles of tileLength:
    // copy in (DataCopyPad for the tail), compute with vector instructions, copy out.
    (void)tilingData;
}
