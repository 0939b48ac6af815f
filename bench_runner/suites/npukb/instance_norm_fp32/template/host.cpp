// Host tiling of instance_norm_fp32: whole groups per core, as evenly as the core count allows.
#include "akgen_host.h"
#include "instance_norm_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    const uint32_t hw = static_cast<uint32_t>(shape.GetDim(2));
    const uint32_t g = c;   // one group per channel
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t groups = n * g;
    uint32_t perCore = (groups + cores - 1) / cores;
    if (perCore == 0) perCore = 1;

    InstanceNormTilingData* tiling = context->GetTilingData<InstanceNormTilingData>();
    tiling->groups = groups;
    tiling->groupsPerCore = perCore;
    tiling->channels = c;
    tiling->chPerGroup = c / g;
    tiling->hw = hw;
    tiling->hwAligned = (hw + 7) / 8 * 8;
    tiling->eps = *context->GetAttrs()->GetFloat(0);
    context->SetBlockDim((groups + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
