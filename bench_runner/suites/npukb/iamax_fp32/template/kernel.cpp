// iamax_fp32: index of the first element of largest |x| (0-based, int32).
// Tiling data from the host (iamax_tiling.h); workspace = system part + one 32-byte slot per core.
#include "kernel_operator.h"
#include "iamax_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void iamax_custom(GM_ADDR x, GM_ADDR idx, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(IamaxTilingData, tilingData, tiling);
    // TODO: per-core partial over [GetBlockIdx() * blockLength, ...) into the core's workspace slot,
    // SyncAll(), then one core combines the partials and writes the result.
    (void)tilingData;
}
