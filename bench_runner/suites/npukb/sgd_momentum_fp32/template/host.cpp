// Host tiling of sgd_momentum_fp32: N split over the cores in 32-byte blocks, 2048-element tiles;
// the hyper-parameters travel in the tiling data.
#include "akgen_host.h"
#include "sgd_momentum_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;
    constexpr uint32_t kTile = 2048;
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (total + kAlign - 1) / kAlign;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t perCore = (blocks + used - 1) / used * kAlign;
    const auto* attrs = context->GetAttrs();

    SgdMomentumTilingData* t = context->GetTilingData<SgdMomentumTilingData>();
    t->totalLength = total;
    t->blockLength = perCore;
    t->tileLength = perCore < kTile ? perCore : kTile;
    t->lr = *attrs->GetFloat(0);
    t->momentum = *attrs->GetFloat(1);
    t->dampening = *attrs->GetFloat(2);
    t->weightDecay = *attrs->GetFloat(3);
    t->nesterov = *attrs->GetBool(4) ? 1 : 0;
    context->SetBlockDim((total + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
