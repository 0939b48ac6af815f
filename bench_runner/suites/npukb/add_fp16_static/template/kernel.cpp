// add_fp16_static: z = x + y on 16384 halfs, launched on 8 cores.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 16384;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // elements per core

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    // TODO: copy this core's slice of x and y into the Unified Buffer, add, copy to z.
}
