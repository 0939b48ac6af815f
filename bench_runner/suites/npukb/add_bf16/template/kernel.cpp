// add_bf16: z = x + y for any N; tiling data from the host (add_bf16_tiling.h).
#include "kernel_operator.h"
#include "add_bf16_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddBf16TilingData, tilingData, tiling);
    // TODO: core GetBlockIdx() handles [GetBlockIdx() * blockLength, ...) of the N elements, in tiles of
    // tileLength; copy the unaligned last tile with DataCopyPad.
    (void)x; (void)y; (void)z;
    (void)tilingData;
}
