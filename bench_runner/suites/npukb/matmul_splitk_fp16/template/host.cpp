// Host tiling of matmul_splitk_fp16: K cut into slices of a multiple of 256, at most one per AI
// core, at least 256 long.
#include "akgen_host.h"
#include "splitk_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& a = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& b = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    SplitKTilingData* t = context->GetTilingData<SplitKTilingData>();
    t->M = static_cast<uint32_t>(a.GetDim(0));
    t->K = static_cast<uint32_t>(a.GetDim(1));
    t->N = static_cast<uint32_t>(b.GetDim(1));
    t->baseK = 64;
    t->stepK = 256;
    const uint32_t steps = (t->K + t->stepK - 1) / t->stepK;
    const uint32_t stepsPerCore = (steps + cores - 1) / cores;
    t->kPerCore = stepsPerCore * t->stepK;
    t->usedCores = (t->K + t->kPerCore - 1) / t->kPerCore;
    context->SetBlockDim(t->usedCores);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
