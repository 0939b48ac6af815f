// Host tiling of nms_fp32: whole images spread over the vector cores (greedy NMS is sequential
// within an image).
#include "akgen_host.h"
#include "nms_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& s = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    NmsTilingData* t = context->GetTilingData<NmsTilingData>();
    t->batch = static_cast<uint32_t>(s.GetDim(0));
    t->boxes = static_cast<uint32_t>(s.GetDim(1));
    t->padded = (t->boxes + 63) / 64 * 64;
    t->imagesPerCore = (t->batch + cores - 1) / cores;
    t->iouThreshold = *context->GetAttrs()->GetAttrPointer<float>(0);
    context->SetBlockDim((t->batch + t->imagesPerCore - 1) / t->imagesPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
