// Host tiling of ffn_gelu_fp16: row blocks of 64 rows, one per block at a time; per block the
// workspace holds the float pre-activation (64 x fPad) and the half hidden activation (64 x fPad).
#include "akgen_host.h"
#include "ffn_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& w1 = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    FfnTilingData* t = context->GetTilingData<FfnTilingData>();
    t->M = static_cast<uint32_t>(x.GetDim(0));
    t->H = static_cast<uint32_t>(x.GetDim(1));
    t->F = static_cast<uint32_t>(w1.GetDim(1));
    t->baseM = 64;
    t->baseN = 256;
    t->baseK = 64;
    t->stepK = 256;
    t->fPad = (t->F + 15) / 16 * 16;
    t->mTiles = (t->M + t->baseM - 1) / t->baseM;
    t->usedCores = t->mTiles < cores ? t->mTiles : cores;
    t->rowChunk = 8;
    context->SetBlockDim(t->usedCores);
    context->GetWorkspaceSizes(1)[0] = FFN_SYS_WORKSPACE + t->usedCores * t->baseM * t->fPad * (4 + 2);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
