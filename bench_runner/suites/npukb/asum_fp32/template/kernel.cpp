// asum_fp32: BLAS level-1 `sasum`: the sum of absolute values of a float32 vector, `y[0] = sum_i |x[i]|`.
// Tiling data from the host (asum_tiling.h); workspace = system part + one 32-byte slot per core.
#include "kernel_operator.h"
#include "asum_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void asum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AsumTilingData, tilingData, tiling);
    // TODO: per-core partial over [GetBlockIdx() * blockLength, ...) into the core's workspace slot,
    // SyncAll(), then one core combines the partials and writes the result.
    (void)tilingData;
}
