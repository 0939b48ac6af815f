// Host tiling of batch_matmul_transb_fp16: 128 x 256 output tiles of every batch, dealt
// round-robin to the AI cores; K moved to L1 in steps of 256 and multiplied in steps of 64.
#include "akgen_host.h"
#include "bmm_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& a = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& b = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    BmmTilingData* t = context->GetTilingData<BmmTilingData>();
    t->batch = static_cast<uint32_t>(a.GetDim(0));
    t->M = static_cast<uint32_t>(a.GetDim(1));
    t->K = static_cast<uint32_t>(a.GetDim(2));
    t->N = static_cast<uint32_t>(b.GetDim(1));
    t->baseM = 128;
    t->baseN = 256;
    t->baseK = 64;
    t->stepK = 256;
    t->mTiles = (t->M + t->baseM - 1) / t->baseM;
    t->nTiles = (t->N + t->baseN - 1) / t->baseN;
    const uint32_t tiles = t->batch * t->mTiles * t->nTiles;
    t->usedCores = tiles < cores ? tiles : cores;
    context->SetBlockDim(t->usedCores);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
