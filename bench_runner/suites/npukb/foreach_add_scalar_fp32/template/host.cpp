// Host tiling of foreach_add_scalar_fp32: the three tensors are seen as one virtual range
// a|b|c of N1 + N2 + N3 elements, split evenly over the cores in 8-element blocks.
#include "akgen_host.h"
#include "foreach_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;
    constexpr uint32_t kTile = 4096;
    ForeachTilingData* t = context->GetTilingData<ForeachTilingData>();
    uint32_t total = 0;
    for (int i = 0; i < 3; ++i) {
        t->length[i] = static_cast<uint32_t>(context->GetInputShape(i)->GetOriginShape().GetShapeSize());
        total += t->length[i];
    }
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (total + kAlign - 1) / kAlign;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t perCore = (blocks + used - 1) / used * kAlign;
    t->blockLength = perCore;
    t->tileLength = perCore < kTile ? perCore : kTile;
    t->scalar = *context->GetAttrs()->GetFloat(0);
    context->SetBlockDim((total + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
