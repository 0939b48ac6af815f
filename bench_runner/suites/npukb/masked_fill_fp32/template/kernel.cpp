// masked_fill_fp32: y = mask ? value : x; tiling data from the host.
#include "kernel_operator.h"
#include "masked_fill_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void masked_fill_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MaskedFillTilingData, tilingData, tiling);
    // TODO: for each tile of this core's slice: copy x and the mask bytes in (DataCopyPad),
    // turn the bytes into a bit mask (Cast + CompareScalar), Select, copy out.
    (void)tilingData;
}
