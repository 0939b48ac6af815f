// Host tiling of grouped_matmul_fp16: 128 x 256 output tiles; the group sizes are only known on
// the device, so the tiles are numbered there (group by group) and dealt round-robin to the AI
// cores; the host bounds their number by ceil(M / 128) + G row blocks.
#include "akgen_host.h"
#include "gmm_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& w = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    GroupedMatmulTilingData* t = context->GetTilingData<GroupedMatmulTilingData>();
    t->M = static_cast<uint32_t>(x.GetDim(0));
    t->K = static_cast<uint32_t>(x.GetDim(1));
    t->G = static_cast<uint32_t>(w.GetDim(0));
    t->N = static_cast<uint32_t>(w.GetDim(2));
    t->baseM = 128;
    t->baseN = 256;
    t->baseK = 64;
    t->stepK = 256;
    t->nTiles = (t->N + t->baseN - 1) / t->baseN;
    const uint32_t maxTiles = ((t->M + t->baseM - 1) / t->baseM + t->G) * t->nTiles;
    t->usedCores = maxTiles < cores ? maxTiles : cores;
    context->SetBlockDim(t->usedCores);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
