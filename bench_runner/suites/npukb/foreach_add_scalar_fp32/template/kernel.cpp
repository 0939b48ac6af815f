// foreach_add_scalar_fp32: a += scalar, b += scalar, c += scalar in one launch (in place);
// tiling data from the host.
#include "kernel_operator.h"
#include "foreach_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void foreach_add_scalar_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ForeachTilingData, tilingData, tiling);
    // TODO: this core owns [i * blockLength, (i + 1) * blockLength) of the virtual range a|b|c:
    // for each tensor piece inside it, tile by tile: copy in, Adds, copy back in place.
    (void)tilingData;
}
