// Adversarial (reduction): sum |x| with a scalar loop over GM on core 0 only; other cores idle.
#include "kernel_operator.h"
#include "asum_tiling.h"

extern "C" __global__ __aicore__ void asum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AsumTilingData, t, tiling);
    if (AscendC::GetBlockIdx() != 0) return;
    const float* src = reinterpret_cast<const float*>(x);
    float acc = 0.0f;
    for (uint32_t i = 0; i < t.totalLength; ++i) acc += src[i] < 0.0f ? -src[i] : src[i];
    *reinterpret_cast<float*>(y) = acc;
}
