// Host tiling of dynamic_quant_int8: rows split over the cores; a row is processed in chunks of
// tileCols columns; scales are written scaleBatch rows at a time.
#include "akgen_host.h"
#include "dynamic_quant_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxCols = 4096;
    constexpr uint32_t kMaxScales = 1024;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(x.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (rows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t colsPad = (cols + 63) / 64 * 64;
    const uint32_t perCorePad = (perCore + 7) / 8 * 8;

    DynamicQuantTilingData* t = context->GetTilingData<DynamicQuantTilingData>();
    t->rows = rows;
    t->cols = cols;
    t->rowsPerCore = perCore;
    t->tileCols = colsPad < kMaxCols ? colsPad : kMaxCols;
    t->scaleBatch = perCorePad < kMaxScales ? perCorePad : kMaxScales;
    context->SetBlockDim((rows + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
