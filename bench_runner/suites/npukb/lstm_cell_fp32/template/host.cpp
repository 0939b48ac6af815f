// Host tiling of lstm_cell_fp32: tiles of rowTile x colTile (<= 2048 elements) of the [B, H]
// state, cut small enough that all vector cores get work, spread evenly over the cores.
#include "akgen_host.h"
#include "lstm_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& c = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    LstmTilingData* t = context->GetTilingData<LstmTilingData>();
    t->batch = static_cast<uint32_t>(c.GetDim(0));
    t->hidden = static_cast<uint32_t>(c.GetDim(1));
    const uint32_t hAligned = (t->hidden + 7) / 8 * 8;
    t->colTile = hAligned < 2048 ? hAligned : 2048;
    t->colBlocks = (t->hidden + t->colTile - 1) / t->colTile;
    uint32_t rows = 2048 / t->colTile;
    const uint32_t split = (cores + t->colBlocks - 1) / t->colBlocks;   // row blocks wanted
    const uint32_t want = (t->batch + split - 1) / split;
    if (want < rows) rows = want ? want : 1;
    t->rowTile = rows;
    t->totalTiles = (t->batch + rows - 1) / rows * t->colBlocks;
    t->tilesPerCore = (t->totalTiles + cores - 1) / cores;
    context->SetBlockDim((t->totalTiles + t->tilesPerCore - 1) / t->tilesPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
