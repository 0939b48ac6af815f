// Host tiling of batch_norm_train_fp32: channels split across cores; a channel is streamed in
// tiles of tileN samples x HW elements.
#include "akgen_host.h"
#include "batch_norm_train_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kTileElems = 8192;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    const uint32_t hw = static_cast<uint32_t>(shape.GetDim(2));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (c + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t hwAligned = (hw + 7) / 8 * 8;
    uint32_t tileN = kTileElems / hwAligned;
    if (tileN > n) tileN = n;
    if (tileN == 0) tileN = 1;

    BatchNormTrainTilingData* tiling = context->GetTilingData<BatchNormTrainTilingData>();
    tiling->batch = n;
    tiling->channels = c;
    tiling->hw = hw;
    tiling->hwAligned = hwAligned;
    tiling->chPerCore = perCore;
    tiling->tileN = tileN;
    tiling->eps = *context->GetAttrs()->GetFloat(0);
    context->SetBlockDim((c + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
