// Host tiling of transpose_2d_fp32: 64 x 64 tiles of x, numbered row-major, split evenly over
// the cores.
#include "akgen_host.h"
#include "transpose_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kTile = 64;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(x.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;

    TransposeTilingData* t = context->GetTilingData<TransposeTilingData>();
    t->rows = rows;
    t->cols = cols;
    t->tileRows = kTile;
    t->tileCols = kTile;
    t->tilesM = (rows + kTile - 1) / kTile;
    t->tilesN = (cols + kTile - 1) / kTile;
    const uint32_t tiles = t->tilesM * t->tilesN;
    uint32_t perCore = (tiles + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    t->tilesPerCore = perCore;
    context->SetBlockDim((tiles + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
