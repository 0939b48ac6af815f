// Host tiling of triu_fp16: whole rows per core; a row is processed in chunks of tileCols columns
// (at most 2048, so column indices inside a chunk are exact in float16).
#include "akgen_host.h"
#include "triu_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxTile = 2048;  // halves per tile (4 KiB)
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t perCore = (rows + cores - 1) / cores;
    const uint32_t colsPadded = (cols + 127) / 128 * 128;

    TriuTilingData* tiling = context->GetTilingData<TriuTilingData>();
    tiling->rows = rows;
    tiling->cols = cols;
    tiling->rowsPerCore = perCore ? perCore : 1;
    tiling->tileCols = colsPadded < kMaxTile ? colsPadded : kMaxTile;
    tiling->diagonal = static_cast<int32_t>(*context->GetAttrs()->GetInt(0));
    context->SetBlockDim((rows + tiling->rowsPerCore - 1) / tiling->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
