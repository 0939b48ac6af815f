// matmul_fp16: c = a @ b with a [M, K], b [K, N], c [M, N] in half, accumulated in float on the
// cube unit (AIC). Tiling data from the host (matmul_tiling.h).
#include "kernel_operator.h"
#include "matmul_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MatmulTilingData, tilingData, tiling);
    // TODO: for each output tile of this core: move K-steps of A and B from GM to L1
    // (DataCopy with Nd2NzParams), to L0A / L0B (LoadData; B transposed per fractal), Mmad into
    // L0C accumulating over K, then Fixpipe to GM (F322F16, NZ -> ND) with the M / N tails.
    (void)tilingData;
}
