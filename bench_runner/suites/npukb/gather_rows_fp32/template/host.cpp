// Host tiling of gather_rows_fp32: output rows split over the cores; a tile holds tileRows
// gathered rows of tileCols columns.
#include "akgen_host.h"
#include "gather_rows_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxCols = 8192;  // floats (32 KiB)
    constexpr uint32_t kTileBytes = 32 * 1024;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t numRows = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(x.GetDim(1));
    const uint32_t numIdx = static_cast<uint32_t>(context->GetInputShape(1)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (numIdx + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t colsPad = (cols + 7) / 8 * 8;

    GatherRowsTilingData* t = context->GetTilingData<GatherRowsTilingData>();
    t->numIdx = numIdx;
    t->numRows = numRows;
    t->cols = cols;
    t->rowsPerCore = perCore;
    t->tileCols = colsPad < kMaxCols ? colsPad : kMaxCols;
    uint32_t tileRows = kTileBytes / (t->tileCols * 4);
    if (tileRows > perCore) tileRows = perCore;
    if (tileRows > 4095) tileRows = 4095;
    t->tileRows = tileRows ? tileRows : 1;
    context->SetBlockDim((numIdx + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
