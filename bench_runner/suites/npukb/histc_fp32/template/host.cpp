// Host tiling of histc_fp32: elements spread over the vector cores in 32-byte blocks, tiles of
// at most 4096 floats.
#include "akgen_host.h"
#include "histc_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    HistcTilingData* t = context->GetTilingData<HistcTilingData>();
    t->total = total;
    t->bins = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    t->minValue = *context->GetAttrs()->GetAttrPointer<float>(1);
    t->maxValue = *context->GetAttrs()->GetAttrPointer<float>(2);
    t->binsAligned = (t->bins + 7) / 8 * 8;
    const uint32_t blocks = (total + 7) / 8;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    t->perCore = (blocks + used - 1) / used * 8;
    t->tile = t->perCore < 4096 ? t->perCore : 4096;
    context->SetBlockDim((total + t->perCore - 1) / t->perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
