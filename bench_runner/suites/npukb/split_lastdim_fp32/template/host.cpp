// Host tiling of split_lastdim_fp32: rows split over the cores; each output is moved in blocks
// of tileRows rows x tileCols columns.
#include "akgen_host.h"
#include "split_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxCols = 8192;  // floats (32 KiB)
    constexpr uint32_t kTileBytes = 32 * 1024;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(x.GetDim(1));
    const uint32_t colsA = static_cast<uint32_t>(*context->GetAttrs()->GetInt(0));
    const uint32_t colsB = cols - colsA;
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (rows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t widest = colsA > colsB ? colsA : colsB;
    const uint32_t widePad = (widest + 7) / 8 * 8;

    SplitTilingData* t = context->GetTilingData<SplitTilingData>();
    t->rows = rows;
    t->colsA = colsA;
    t->colsB = colsB;
    t->rowsPerCore = perCore;
    t->tileCols = widePad < kMaxCols ? widePad : kMaxCols;
    uint32_t tileRows = kTileBytes / (t->tileCols * 4);
    if (tileRows > perCore) tileRows = perCore;
    if (tileRows > 4095) tileRows = 4095;
    t->tileRows = tileRows ? tileRows : 1;
    context->SetBlockDim((rows + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
