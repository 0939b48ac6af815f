// Host tiling of bias_add_fp16: whole rows per core, as evenly as the core count allows; tiles of
// several rows (about 4096 halves), each row padded to a 32-byte pitch in the Unified Buffer.
#include "akgen_host.h"
#include "bias_add_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kTile = 4096;   // halves per tile (target)
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t perCore = rows ? (rows + cores - 1) / cores : 1;
    const uint32_t padded = (cols + 15) / 16 * 16;
    uint32_t perTile = kTile / padded;
    perTile = perTile < 1 ? 1 : (perTile > perCore ? perCore : perTile);

    BiasAddTilingData* tiling = context->GetTilingData<BiasAddTilingData>();
    tiling->rows = rows;
    tiling->cols = cols;
    tiling->colsPadded = padded;
    tiling->rowsPerCore = perCore;
    tiling->rowsPerTile = perTile;
    context->SetBlockDim(rows ? (rows + perCore - 1) / perCore : 1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
