// rope_rotate_half_fp16: y = x * cos + rotate_half(x) * sin per token and head; tiling data from
// the host.
#include "kernel_operator.h"
#include "rope_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void rope_custom(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RopeTilingData, tilingData, tiling);
    // TODO: for each of this core's tokens: load its cos/sin rows, then for each tile of heads:
    // copy x in, compute in float32, y = x * cos + rotate_half(x) * sin, copy y out.
    (void)tilingData;
}
