// Host tiling of softmax_grad_fp32_rows: whole rows per core, as evenly as the core count allows.
#include "akgen_host.h"
#include "softmax_grad_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t perCore = (rows + cores - 1) / cores;

    SoftmaxGradTilingData* tiling = context->GetTilingData<SoftmaxGradTilingData>();
    tiling->rows = rows;
    tiling->cols = cols;
    tiling->rowsPerCore = perCore ? perCore : 1;
    tiling->colsAligned = (cols + 7) / 8 * 8;
    context->SetBlockDim((rows + tiling->rowsPerCore - 1) / tiling->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
