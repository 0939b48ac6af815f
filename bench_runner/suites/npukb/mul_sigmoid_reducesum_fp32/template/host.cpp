// Host tiling of mul_sigmoid_reducesum_fp32: rows split over the cores; short rows are batched
// rowsPerTile at a time, long rows go in chunks of tileCols columns.
#include "akgen_host.h"
#include "mul_sigmoid_reducesum_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kTileElems = 4096;
    constexpr uint32_t kMaxOut = 1024;
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(x.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    uint32_t perCore = (rows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    const uint32_t colsPad = (cols + 7) / 8 * 8;

    MulSigmoidReduceSumTilingData* t = context->GetTilingData<MulSigmoidReduceSumTilingData>();
    t->rows = rows;
    t->cols = cols;
    t->rowsPerCore = perCore;
    t->tileCols = colsPad < kTileElems ? colsPad : kTileElems;
    uint32_t rpt = cols <= kTileElems ? kTileElems / colsPad : 1;
    if (rpt > perCore) rpt = perCore;
    if (rpt > 1024) rpt = 1024;
    t->rowsPerTile = rpt ? rpt : 1;
    const uint32_t perCorePad = (perCore + 7) / 8 * 8;
    t->outBatch = perCorePad < kMaxOut ? perCorePad : kMaxOut;
    context->SetBlockDim((rows + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
