// Host tiling of cumsum_fp32_lastdim: whole rows per core; a tile is `lanes` rows x `tileCols`
// columns (about 4096 floats), the rows of a tile being scanned side by side.
#include "akgen_host.h"
#include "cumsum_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kTileElems = 4096;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (rows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    uint32_t lanes = (perCore + 7) / 8 * 8;
    if (lanes > 64) lanes = 64;
    const uint32_t colsAligned = (cols + 7) / 8 * 8;
    uint32_t tileCols = kTileElems / lanes / 8 * 8;
    if (tileCols > colsAligned) tileCols = colsAligned;

    CumsumTilingData* tiling = context->GetTilingData<CumsumTilingData>();
    tiling->rows = rows;
    tiling->cols = cols;
    tiling->rowsPerCore = perCore;
    tiling->lanes = lanes;
    tiling->tileCols = tileCols;
    context->SetBlockDim((rows + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
