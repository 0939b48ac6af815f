// Host tiling of embedding_backward_fp32: grad_weight rows are owned by cores (each core sums its
// own rows, so no atomics and a fixed summation order); rows accumulate in UB blockRows at a time.
#include "akgen_host.h"
#include "embedding_backward_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxCols = 8192;
    constexpr uint32_t kAccElems = 16384;  // 64 KiB accumulator
    constexpr uint32_t kMaxBatch = 4096;
    const gert::Shape& g = context->GetInputShape(0)->GetOriginShape();
    const uint32_t numIds = static_cast<uint32_t>(g.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(g.GetDim(1));
    const uint32_t numWeights = static_cast<uint32_t>(*context->GetAttrs()->GetInt(0));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (numWeights + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t colsPad = (cols + 7) / 8 * 8;
    const uint32_t idxPad = (numIds + 7) / 8 * 8;

    EmbeddingBackwardTilingData* t = context->GetTilingData<EmbeddingBackwardTilingData>();
    t->numWeights = numWeights;
    t->cols = cols;
    t->numIds = numIds;
    t->paddingIdx = static_cast<int32_t>(*context->GetAttrs()->GetInt(1));
    t->rowsPerCore = perCore;
    t->tileCols = colsPad < kMaxCols ? colsPad : kMaxCols;
    uint32_t blockRows = kAccElems / t->tileCols;
    if (blockRows > perCore) blockRows = perCore;
    if (blockRows > 4095) blockRows = 4095;
    t->blockRows = blockRows ? blockRows : 1;
    t->idxBatch = idxPad < kMaxBatch ? idxPad : kMaxBatch;
    context->SetBlockDim((numWeights + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
