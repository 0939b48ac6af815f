// bias_add_fp16: y[m, n] = x[m, n] + b[n]; tiling data from the host (bias_add_tiling.h).
#include "kernel_operator.h"
#include "bias_add_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void bias_add_custom(GM_ADDR x, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(BiasAddTilingData, tilingData, tiling);
    // TODO: load b once per core; rows [GetBlockIdx() * rowsPerCore, ...) in tiles of rowsPerTile rows.
    (void)tilingData;
}
