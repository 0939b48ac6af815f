// gelu_grad_fp32: dx = dy * d/dx gelu(x), gelu(x) = 0.5 x (1 + tanh(k (x + c x^3))), k = sqrt(2/pi), c = 0.044715; tiling data from the host.
#include "kernel_operator.h"
#include "gelu_grad_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void gelu_grad_custom(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GeluGradTilingData, tilingData, tiling);
    // TODO: this core's range [GetBlockIdx() * blockLength, ...) in tiles of tileLength:
    // copy in (DataCopyPad for the tail), compute with vector instructions, copy out.
    (void)tilingData;
}
