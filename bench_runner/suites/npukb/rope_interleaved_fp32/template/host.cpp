// Host tiling of rope_interleaved_fp32: tokens split over the cores; the heads of one token go
// through the Unified Buffer headsPerTile at a time.
#include "akgen_host.h"
#include "rope_interleaved_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kTileElems = 4096;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t tokens = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t heads = static_cast<uint32_t>(x.GetDim(1));
    const uint32_t dim = static_cast<uint32_t>(x.GetDim(2));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (tokens + cores - 1) / cores;
    if (perCore == 0) perCore = 1;

    RopeInterleavedTilingData* t = context->GetTilingData<RopeInterleavedTilingData>();
    t->tokens = tokens;
    t->heads = heads;
    t->dim = dim;
    t->dimPadded = (dim + 7) / 8 * 8;
    t->halfPadded = (dim / 2 + 7) / 8 * 8;
    t->tokensPerCore = perCore;
    uint32_t hp = kTileElems / t->dimPadded;
    if (hp > heads) hp = heads;
    t->headsPerTile = hp ? hp : 1;
    context->SetBlockDim((tokens + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
