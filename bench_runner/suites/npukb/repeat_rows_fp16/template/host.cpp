// Host tiling of repeat_rows_fp16: output rows split over the cores; a row is handled in chunks
// of tileCols columns, and up to tileRows rows of a chunk leave in one copy.
#include "akgen_host.h"
#include "repeat_rows_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxCols = 8192;           // halves per chunk (16 KiB)
    constexpr uint32_t kOutBytes = 32 * 1024;     // replicated output tile
    const gert::Shape& out = context->GetOutputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(out.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(out.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (rows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t colsPadded = (cols + 15) / 16 * 16;
    const uint32_t tileCols = colsPadded < kMaxCols ? colsPadded : kMaxCols;
    uint32_t tileRows = kOutBytes / (tileCols * 2);
    if (tileRows > perCore) tileRows = perCore;
    if (tileRows == 0) tileRows = 1;

    RepeatRowsTilingData* tiling = context->GetTilingData<RepeatRowsTilingData>();
    tiling->rows = rows;
    tiling->cols = cols;
    tiling->rowsPerCore = perCore;
    tiling->tileCols = tileCols;
    tiling->tileRows = tileRows;
    context->SetBlockDim((rows + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
