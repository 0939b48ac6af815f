// Host tiling of moe_token_routing_fp32: tokens spread over the vector cores; x rows copied in
// tiles of at most 32 KiB; a workspace of the system part plus one row of E counts per core.
#include "akgen_host.h"
#include "moe_routing_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ids = context->GetInputShape(1)->GetOriginShape();
    const gert::Shape& counts = context->GetOutputShape(2)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    MoeRoutingTilingData* t = context->GetTilingData<MoeRoutingTilingData>();
    t->tokens = static_cast<uint32_t>(x.GetDim(0));
    t->hidden = static_cast<uint32_t>(x.GetDim(1));
    t->topk = static_cast<uint32_t>(ids.GetDim(1));
    t->experts = static_cast<uint32_t>(counts.GetDim(0));
    t->expertsAligned = (t->experts + 7) / 8 * 8;
    t->hiddenAligned = (t->hidden + 7) / 8 * 8;
    t->tokensPerCore = (t->tokens + cores - 1) / cores;
    t->usedCores = (t->tokens + t->tokensPerCore - 1) / t->tokensPerCore;
    uint32_t rows = 8192 / t->hiddenAligned;
    if (rows == 0) rows = 1;
    t->rowTile = rows < t->tokensPerCore ? rows : t->tokensPerCore;
    context->SetBlockDim(t->usedCores);
    context->GetWorkspaceSizes(1)[0] = MOE_ROUTING_SYS_WORKSPACE + t->usedCores * t->expertsAligned * 4;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
