// Host tiling of arange_fp32: N split over the vector cores in chunks of 128 elements (whole
// 256-byte repeats), tiles of at most 4096 elements, attributes copied into the tiling data.
#include "akgen_host.h"
#include "arange_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 128;   // elements per chunk
    constexpr uint32_t kTile = 4096;   // elements per tile
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t chunks = (total + kAlign - 1) / kAlign;
    const uint32_t used = chunks < cores ? (chunks ? chunks : 1) : cores;
    const uint32_t perCore = (chunks + used - 1) / used * kAlign;

    ArangeTilingData* tiling = context->GetTilingData<ArangeTilingData>();
    tiling->totalLength = total;
    tiling->blockLength = perCore;
    tiling->tileLength = perCore < kTile ? perCore : kTile;
    tiling->start = *context->GetAttrs()->GetAttrPointer<float>(0);
    tiling->step = *context->GetAttrs()->GetAttrPointer<float>(1);
    context->SetBlockDim((total + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
