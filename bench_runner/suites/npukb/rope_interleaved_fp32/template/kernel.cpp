// rope_interleaved_fp32: (y[2i], y[2i+1]) = (x[2i] c - x[2i+1] s, x[2i+1] c + x[2i] s) with
// c = cos[t, i], s = sin[t, i], per token and head; tiling data from the host.
#include "kernel_operator.h"
#include "rope_interleaved_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void rope_interleaved_custom(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y,
                                                              GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RopeInterleavedTilingData, tilingData, tiling);
    // TODO: for each of this core's tokens: load its cos/sin rows and expand them to one value
    // per element; for each tile of heads: copy x in, rotate every pair, copy y out.
    (void)tilingData;
}
