// nrm2_fp32: BLAS level-1 `snrm2`: the Euclidean norm of a float32 vector, `y[0] = sqrt(sum_i x[i]^2)`.
// Tiling data from the host (nrm2_tiling.h); workspace = system part + one 32-byte slot per core.
#include "kernel_operator.h"
#include "nrm2_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void nrm2_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(Nrm2TilingData, tilingData, tiling);
    // TODO: per-core partial over [GetBlockIdx() * blockLength, ...) into the core's workspace slot,
    // SyncAll(), then one core combines the partials and writes the result.
    (void)tilingData;
}
