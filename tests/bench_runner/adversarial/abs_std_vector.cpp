// Adversarial: an STL container (heap) in device code.
#include "kernel_operator.h"
#include <vector>
#include "abs_tiling.h"

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AbsTilingData, t, tiling);
    std::vector<uint16_t> tmp(t.totalLength);
    (void)tmp;
}
