// Host tiling of mse_loss_fp32: spread N over at most all vector cores in 32-byte blocks.
#include "akgen_host.h"
#include "mse_loss_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;     // floats per 32-byte block
    constexpr uint32_t kTile = 4096;   // floats per tile
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (total + kAlign - 1) / kAlign;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t perCore = (blocks + used - 1) / used * kAlign;

    MseLossTilingData* tiling = context->GetTilingData<MseLossTilingData>();
    tiling->totalLength = total;
    tiling->blockLength = perCore;
    tiling->tileLength = perCore < kTile ? perCore : kTile;
    tiling->invTotal = 1.0f / static_cast<float>(total);
    context->SetBlockDim((total + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
