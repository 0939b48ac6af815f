// add_unaligned_tail_fp16: z = x + y for lengths that are never a multiple of 16.
// Tiling data from the host (add_tail_tiling.h).
#include "kernel_operator.h"
#include "add_tail_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void add_tail_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddTailTilingData, tilingData, tiling);
    // TODO: process [GetBlockIdx() * blockLength, ...) in tiles of tileLength; DataCopyPad for the tail.
    (void)tilingData;
}
