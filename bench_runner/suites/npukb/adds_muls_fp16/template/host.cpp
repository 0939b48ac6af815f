// Host tiling of adds_muls_fp16: N spread over at most all vector cores in 16-element blocks
// (32 bytes of half, 64 bytes of float: every core starts 32-byte aligned), 8192 elements per tile.
#include "akgen_host.h"
#include "adds_muls_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 16;     // elements per block of the core split
    constexpr uint32_t kTile = 8192;   // elements per UB tile
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (total + kAlign - 1) / kAlign;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t perCore = (blocks + used - 1) / used * kAlign;

    AddsMulsTilingData* tiling = context->GetTilingData<AddsMulsTilingData>();
    tiling->totalLength = total;
    tiling->blockLength = perCore;
    tiling->tileLength = perCore < kTile ? perCore : kTile;
    const float* alpha = context->GetAttrs()->GetFloat(0);
    tiling->alpha = alpha ? *alpha : 0.0f;
    const float* beta = context->GetAttrs()->GetFloat(1);
    tiling->beta = beta ? *beta : 0.0f;
    context->SetBlockDim((total + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
