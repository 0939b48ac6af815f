// Host tiling of attention_scores_fp16: row blocks of 64 queries (32 per vector core), key chunks
// of 128; the workspace holds two float row blocks per block (ping-pong AIC -> AIV).
#include <cmath>

#include "akgen_host.h"
#include "attn_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& q = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& k = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    AttnScoresTilingData* t = context->GetTilingData<AttnScoresTilingData>();
    t->BH = static_cast<uint32_t>(q.GetDim(0));
    t->S = static_cast<uint32_t>(q.GetDim(1));
    t->D = static_cast<uint32_t>(q.GetDim(2));
    t->T = static_cast<uint32_t>(k.GetDim(1));
    t->baseM = 64;
    t->baseN = 128;
    t->tPad = (t->T + 15) / 16 * 16;
    t->mTiles = (t->S + t->baseM - 1) / t->baseM;
    const uint32_t tiles = t->BH * t->mTiles;
    t->usedCores = tiles < cores ? tiles : cores;
    t->scale = 1.0f / std::sqrt(static_cast<float>(t->D));
    context->SetBlockDim(t->usedCores);
    context->GetWorkspaceSizes(1)[0] = ATTN_SYS_WORKSPACE + t->usedCores * 2 * t->baseM * t->tPad * 4;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
