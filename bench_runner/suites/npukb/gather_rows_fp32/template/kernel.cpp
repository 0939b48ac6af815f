// gather_rows_fp32: y[k, :] = x[idx[k], :]; tiling data from the host.
#include "kernel_operator.h"
#include "gather_rows_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void gather_rows_custom(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GatherRowsTilingData, tilingData, tiling);
    // TODO: for this core's output rows, in tiles of tileRows rows: copy the indices in, read
    // them on the scalar unit, copy each selected row of x into the tile, write the tile out.
    (void)tilingData;
}
