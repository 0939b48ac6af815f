// Host tiling of kv_rmsnorm_rope_cache_fp16: tokens spread over the vector cores, tiles of at
// most 16 tokens whose working set stays within ~140 KiB of the Unified Buffer.
#include "akgen_host.h"
#include "kv_rmsnorm_rope_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& k = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& cache = context->GetInputShape(6)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    KvRmsNormRopeTilingData* t = context->GetTilingData<KvRmsNormRopeTilingData>();
    t->tokens = static_cast<uint32_t>(k.GetDim(0));
    t->heads = static_cast<uint32_t>(k.GetDim(1));
    t->headDim = static_cast<uint32_t>(k.GetDim(2));
    t->slots = static_cast<uint32_t>(cache.GetDim(0));
    t->halfDim = t->headDim / 2;
    t->halfAligned = (t->halfDim + 15) / 16 * 16;
    t->vRowAligned = (t->heads * t->headDim + 15) / 16 * 16;
    t->epsilon = *context->GetAttrs()->GetAttrPointer<float>(0);
    t->tokensPerCore = (t->tokens + cores - 1) / cores;
    // Per token: k in (2 x half), k as float, result as float, k out (2 x half), cos/sin in
    // (2 x half), cos/sin as float, v (2 x half).
    const uint32_t row = 2 * t->halfAligned;
    const uint32_t perToken = t->heads * row * (4 + 4 + 4 + 4) + 2 * row * (4 + 4) + 4 * t->vRowAligned;
    uint32_t tile = (140 * 1024) / perToken;
    if (tile > 16) tile = 16;
    if (tile == 0) tile = 1;
    t->tokenTile = tile < t->tokensPerCore ? tile : t->tokensPerCore;
    context->SetBlockDim((t->tokens + t->tokensPerCore - 1) / t->tokensPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
