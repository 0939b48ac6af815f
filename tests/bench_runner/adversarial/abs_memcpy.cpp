// Adversarial: host libc in device code (memcpy of the input, then fix the sign bits).
#include "kernel_operator.h"
#include <cstring>
#include "abs_tiling.h"

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AbsTilingData, t, tiling);
    if (AscendC::GetBlockIdx() != 0) return;
    std::memcpy(y, x, t.totalLength * 2);
}
