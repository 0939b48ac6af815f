// Host tiling of quant_matmul_int8: 128 x 256 output tiles dealt round-robin to the AI cores; K
// moved to L1 in steps of 512 and multiplied in steps of 128 (int8: 32 per fractal row).
#include "akgen_host.h"
#include "qmm_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& w = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    QuantMatmulTilingData* t = context->GetTilingData<QuantMatmulTilingData>();
    t->M = static_cast<uint32_t>(x.GetDim(0));
    t->K = static_cast<uint32_t>(x.GetDim(1));
    t->N = static_cast<uint32_t>(w.GetDim(0));
    t->baseM = 128;
    t->baseN = 256;
    t->baseK = 128;
    t->stepK = 512;
    t->mTiles = (t->M + t->baseM - 1) / t->baseM;
    t->nTiles = (t->N + t->baseN - 1) / t->baseN;
    const uint32_t tiles = t->mTiles * t->nTiles;
    t->usedCores = tiles < cores ? tiles : cores;
    context->SetBlockDim(t->usedCores);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
