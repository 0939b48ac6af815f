// Host tiling of logsumexp_fp32_rows: whole rows per core, each row processed in UB chunks of at
// most 8192 elements.
#include "akgen_host.h"
#include "logsumexp_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;     // float32 elements per 32-byte block
    constexpr uint32_t kTile = 8192;   // elements per UB chunk
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t perCore = (rows + cores - 1) / cores;
    const uint32_t colsAligned = (cols + kAlign - 1) / kAlign * kAlign;

    LogSumExpTilingData* tiling = context->GetTilingData<LogSumExpTilingData>();
    tiling->rows = rows;
    tiling->cols = cols;
    tiling->rowsPerCore = perCore ? perCore : 1;
    tiling->tileCols = colsAligned < kTile ? colsAligned : kTile;
    context->SetBlockDim((rows + tiling->rowsPerCore - 1) / tiling->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
