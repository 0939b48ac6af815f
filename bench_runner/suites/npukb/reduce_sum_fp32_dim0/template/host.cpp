// Host tiling of reduce_sum_fp32_dim0: the N columns are split across cores in 32-byte blocks; a
// tile is tileRows rows x tileCols columns of the core's column range.
#include "akgen_host.h"
#include "reduce_sum_dim0_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;          // floats per 32-byte block
    constexpr uint32_t kMaxCols = 2048;
    constexpr uint32_t kTileElems = 8192;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (cols + kAlign - 1) / kAlign;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t perCore = (blocks + used - 1) / used * kAlign;
    const uint32_t tileCols = perCore < kMaxCols ? perCore : kMaxCols;
    uint32_t tileRows = kTileElems / tileCols;
    if (tileRows > rows) tileRows = rows;
    if (tileRows == 0) tileRows = 1;

    ReduceSumDim0TilingData* tiling = context->GetTilingData<ReduceSumDim0TilingData>();
    tiling->rows = rows;
    tiling->cols = cols;
    tiling->colsPerCore = perCore;
    tiling->tileCols = tileCols;
    tiling->tileRows = tileRows;
    context->SetBlockDim((cols + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
