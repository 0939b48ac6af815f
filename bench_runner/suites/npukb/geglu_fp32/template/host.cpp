// Host tiling of geglu_fp32: whole rows per core; a tile is tileRows rows x tileCols columns of
// each half (about 4096 elements), so short rows are batched and long rows are split.
#include "akgen_host.h"
#include "geglu_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;        // elements per 32-byte block
    constexpr uint32_t kMaxCols = 2048;
    constexpr uint32_t kTileElems = 4096;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t hidden = static_cast<uint32_t>(shape.GetDim(1)) / 2;
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (rows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t colsAligned = (hidden + kAlign - 1) / kAlign * kAlign;
    const uint32_t tileCols = colsAligned < kMaxCols ? colsAligned : kMaxCols;
    uint32_t tileRows = kTileElems / tileCols;
    if (tileRows > perCore) tileRows = perCore;
    if (tileRows == 0) tileRows = 1;

    GegluTilingData* tiling = context->GetTilingData<GegluTilingData>();
    tiling->rows = rows;
    tiling->hidden = hidden;
    tiling->rowsPerCore = perCore;
    tiling->tileRows = tileRows;
    tiling->tileCols = tileCols;
    context->SetBlockDim((rows + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
