// Host tiling of sort_fp32_lastdim: rows spread over the vector cores; rows are padded to a
// power of two P >= 64 and sorted rowTile at a time (rowTile * P <= 2048).
#include "akgen_host.h"
#include "sort_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    SortTilingData* t = context->GetTilingData<SortTilingData>();
    t->rows = static_cast<uint32_t>(s.GetDim(0));
    t->cols = static_cast<uint32_t>(s.GetDim(1));
    uint32_t p = 64;
    while (p < t->cols) p *= 2;
    t->padded = p;
    t->rowsPerCore = (t->rows + cores - 1) / cores;
    const uint32_t rt = 2048 / p;
    t->rowTile = rt < t->rowsPerCore ? rt : t->rowsPerCore;
    context->SetBlockDim((t->rows + t->rowsPerCore - 1) / t->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
