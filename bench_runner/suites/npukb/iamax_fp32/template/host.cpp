// Host tiling of iamax_fp32: N split over the vector cores in chunks of 128 elements, tiles of at
// most 4096 floats, and a workspace of the system part plus one 32-byte slot per used core
// (each core publishes its best (value, index) there; one core picks the winner).
#include "akgen_host.h"
#include "iamax_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 128;   // elements per chunk
    constexpr uint32_t kTile = 4096;   // floats per tile
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t chunks = (total + kAlign - 1) / kAlign;
    const uint32_t used = chunks < cores ? (chunks ? chunks : 1) : cores;
    const uint32_t perCore = (chunks + used - 1) / used * kAlign;

    IamaxTilingData* tiling = context->GetTilingData<IamaxTilingData>();
    tiling->totalLength = total;
    tiling->blockLength = perCore;
    tiling->tileLength = perCore < kTile ? perCore : kTile;
    tiling->usedCores = (total + perCore - 1) / perCore;
    context->SetBlockDim(tiling->usedCores);
    context->GetWorkspaceSizes(1)[0] = IAMAX_SYS_WORKSPACE + tiling->usedCores * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
