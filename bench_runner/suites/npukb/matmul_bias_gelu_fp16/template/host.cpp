// Host tiling of matmul_bias_gelu_fp16: 128 x 256 output tiles dealt round-robin to the AI cores;
// the workspace holds two float tiles per block (ping-pong between the AIC and its AIVs).
#include "akgen_host.h"
#include "mm_gelu_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& a = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& b = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    MatmulGeluTilingData* t = context->GetTilingData<MatmulGeluTilingData>();
    t->M = static_cast<uint32_t>(a.GetDim(0));
    t->K = static_cast<uint32_t>(a.GetDim(1));
    t->N = static_cast<uint32_t>(b.GetDim(1));
    t->baseM = 128;
    t->baseN = 256;
    t->baseK = 64;
    t->stepK = 256;
    t->mTiles = (t->M + t->baseM - 1) / t->baseM;
    t->nTiles = (t->N + t->baseN - 1) / t->baseN;
    const uint32_t tiles = t->mTiles * t->nTiles;
    t->usedCores = tiles < cores ? tiles : cores;
    t->rowChunk = 16;
    context->SetBlockDim(t->usedCores);
    context->GetWorkspaceSizes(1)[0] = MM_GELU_SYS_WORKSPACE + t->usedCores * 2 * t->baseM * t->baseN * 4;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
