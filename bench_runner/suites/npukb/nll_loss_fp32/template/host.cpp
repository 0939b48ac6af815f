// Host tiling of nll_loss_fp32: rows split over the cores (at most the AIV count, since the
// kernel ends with SyncAll); one 32-byte workspace slot per core for the partial sums.
#include "akgen_host.h"
#include "nll_loss_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxBatch = 4096;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(x.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (rows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t used = (rows + perCore - 1) / perCore;
    const uint32_t perCorePad = (perCore + 7) / 8 * 8;

    NllLossTilingData* t = context->GetTilingData<NllLossTilingData>();
    t->rows = rows;
    t->cols = cols;
    t->rowsPerCore = perCore;
    t->usedCores = used;
    t->batch = perCorePad < kMaxBatch ? perCorePad : kMaxBatch;
    t->ignoreIndex = static_cast<int32_t>(*context->GetAttrs()->GetInt(0));
    context->GetWorkspaceSizes(1)[0] = static_cast<size_t>(used) * 8 * sizeof(float) + platform.GetLibApiWorkSpaceSize();
    context->SetBlockDim(used);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
