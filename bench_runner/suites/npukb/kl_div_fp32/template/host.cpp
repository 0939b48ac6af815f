// Host tiling of kl_div_fp32: the flat M * N elements split over the cores in 8-element blocks
// (at most the AIV count, since the kernel ends with SyncAll); one workspace slot per core.
#include "akgen_host.h"
#include "kl_div_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;
    constexpr uint32_t kTile = 4096;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t total = static_cast<uint32_t>(x.GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (total + kAlign - 1) / kAlign;
    const uint32_t want = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t perCore = (blocks + want - 1) / want * kAlign;
    const uint32_t used = (total + perCore - 1) / perCore;

    KlDivTilingData* t = context->GetTilingData<KlDivTilingData>();
    t->totalLength = total;
    t->rows = static_cast<uint32_t>(x.GetDim(0));
    t->blockLength = perCore;
    uint32_t tile = perCore < kTile ? perCore : kTile;
    const uint32_t minTile = ((perCore + 63) / 64 + kAlign - 1) / kAlign * kAlign;  // at most 64 tiles
    t->tileLength = tile > minTile ? tile : minTile;
    t->usedCores = used;
    context->GetWorkspaceSizes(1)[0] = static_cast<size_t>(used) * 8 * sizeof(float) + platform.GetLibApiWorkSpaceSize();
    context->SetBlockDim(used);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
