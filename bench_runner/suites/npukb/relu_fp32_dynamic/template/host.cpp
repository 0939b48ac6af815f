// Host tiling of relu_fp32_dynamic: spread N over at most all vector cores in 32-byte blocks.
#include "akgen_host.h"
#include "relu_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;     // floats per 32-byte block
    constexpr uint32_t kTile = 2048;   // floats per tile (8 KiB)
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (total + kAlign - 1) / kAlign;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t per_core = (blocks + used - 1) / used * kAlign;

    ReluTilingData* tiling = context->GetTilingData<ReluTilingData>();
    tiling->totalLength = total;
    tiling->blockLength = per_core;
    tiling->tileLength = per_core < kTile ? per_core : kTile;
    context->SetBlockDim((total + per_core - 1) / per_core);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
