// triu_fp16: y[i, j] = x[i, j] if j >= i + diagonal else 0; tiling data from the host.
#include "kernel_operator.h"
#include "triu_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void triu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(TriuTilingData, tilingData, tiling);
    // TODO: for each of this core's rows and each chunk of tileCols columns: copy in
    // (DataCopyPad), keep the columns j >= row + diagonal and zero the others, copy out.
    (void)tilingData;
}
