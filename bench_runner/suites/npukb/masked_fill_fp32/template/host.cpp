// Host tiling of masked_fill_fp32: the flattened tensors split over the cores in 32-element
// units (so both the float and the bool slices start on 32-byte boundaries).
#include "akgen_host.h"
#include "masked_fill_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kUnit = 32;
    constexpr uint32_t kTile = 4096;
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t units = (total + kUnit - 1) / kUnit;
    const uint32_t used = units < cores ? (units ? units : 1) : cores;
    const uint32_t perCore = (units + used - 1) / used * kUnit;

    MaskedFillTilingData* tiling = context->GetTilingData<MaskedFillTilingData>();
    tiling->totalLength = total;
    tiling->blockLength = perCore;
    const uint32_t perCorePadded = (perCore + 127) / 128 * 128;
    tiling->tileLength = perCorePadded < kTile ? perCorePadded : kTile;
    tiling->value = *context->GetAttrs()->GetFloat(0);
    context->SetBlockDim((total + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
