// Host tiling of topk_smallest_fp16: rows spread over the vector cores, tiles of whole rows of at
// most 32 KiB (a single row when a row is longer).
#include "akgen_host.h"
#include "topk_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    TopkTilingData* t = context->GetTilingData<TopkTilingData>();
    t->rows = static_cast<uint32_t>(s.GetDim(0));
    t->cols = static_cast<uint32_t>(s.GetDim(1));
    t->k = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    t->colsAligned = (t->cols + 15) / 16 * 16;
    t->rowsPerCore = (t->rows + cores - 1) / cores;
    uint32_t rt = 16384 / t->colsAligned;
    if (rt == 0) rt = 1;
    t->rowTile = rt < t->rowsPerCore ? rt : t->rowsPerCore;
    t->workLength = t->colsAligned / 8 + 128;
    context->SetBlockDim((t->rows + t->rowsPerCore - 1) / t->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
