// Host tiling of moe_gating_topk_softmax_fp32: tokens spread over the vector cores, tiles of
// rows of at most 16 KiB of logits.
#include "akgen_host.h"
#include "moe_gating_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    MoeGatingTilingData* t = context->GetTilingData<MoeGatingTilingData>();
    t->tokens = static_cast<uint32_t>(s.GetDim(0));
    t->experts = static_cast<uint32_t>(s.GetDim(1));
    t->k = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    t->renormalize = *context->GetAttrs()->GetAttrPointer<bool>(1) ? 1 : 0;
    t->eAligned = (t->experts + 7) / 8 * 8;
    t->rowsPerCore = (t->tokens + cores - 1) / cores;
    uint32_t rows = 4096 / t->eAligned;
    if (rows == 0) rows = 1;
    t->rowTile = rows < t->rowsPerCore ? rows : t->rowsPerCore;
    context->SetBlockDim((t->tokens + t->rowsPerCore - 1) / t->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
