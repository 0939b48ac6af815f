// Host tiling of iou_boxes_fp32: rows of boxes1 spread over the vector cores, boxes2 in column
// tiles of at most 2048 boxes, output tiles of at most 8192 floats.
#include "akgen_host.h"
#include "iou_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const uint32_t n = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetDim(0));
    const uint32_t m = static_cast<uint32_t>(context->GetInputShape(1)->GetOriginShape().GetDim(0));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;

    IouTilingData* t = context->GetTilingData<IouTilingData>();
    t->n = n;
    t->m = m;
    t->rowsPerCore = (n + cores - 1) / cores;
    const uint32_t mAligned = (m + 7) / 8 * 8;
    t->colTile = mAligned < 2048 ? mAligned : 2048;
    const uint32_t rt = 8192 / t->colTile;
    t->rowTile = rt < t->rowsPerCore ? rt : t->rowsPerCore;
    context->SetBlockDim((n + t->rowsPerCore - 1) / t->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
