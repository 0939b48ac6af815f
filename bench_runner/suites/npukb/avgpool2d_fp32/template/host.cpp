// Host tiling of avgpool2d_fp32: work items are (plane, band of output rows); a band is sized
// so that its input rows fit the Unified Buffer, and small problems are cut finer so that
// every vector core gets work.
#include "akgen_host.h"
#include "avgpool2d_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& in = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& out = context->GetOutputShape(0)->GetOriginShape();
    const auto* attrs = context->GetAttrs();
    AvgPool2dTilingData* t = context->GetTilingData<AvgPool2dTilingData>();
    t->n = static_cast<uint32_t>(in.GetDim(0));
    t->c = static_cast<uint32_t>(in.GetDim(1));
    t->h = static_cast<uint32_t>(in.GetDim(2));
    t->w = static_cast<uint32_t>(in.GetDim(3));
    t->oh = static_cast<uint32_t>(out.GetDim(2));
    t->ow = static_cast<uint32_t>(out.GetDim(3));
    t->kernel = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    t->stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    t->padding = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    t->countIncludePad = *attrs->GetAttrPointer<bool>(3) ? 1 : 0;

    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    t->rowStride = (t->w + t->padding + 7) / 8 * 8;
    t->owAligned = (t->ow + 7) / 8 * 8;

    // UB bytes for R output rows: 2 input bands + 2 output tiles + gather tile + factor tile
    // (float) + offsets (uint32).
    constexpr uint32_t kBudget = 160 * 1024;
    auto bytesFor = [&](uint32_t rows) {
        const uint32_t band = ((rows - 1) * t->stride + t->kernel + 1) * t->rowStride * 4;
        const uint32_t tile = rows * t->owAligned;
        return 2 * band + 5 * tile * 4;
    };
    uint32_t rows = 1;
    while (rows < t->oh && bytesFor(rows + 1) <= kBudget) ++rows;
    const uint32_t planes = t->n * t->c;
    if (planes < cores) {   // spread one plane over several cores
        const uint32_t split = (cores + planes - 1) / planes;
        const uint32_t want = (t->oh + split - 1) / split;
        if (want < rows) rows = want ? want : 1;
    }
    t->rowsPerTile = rows;
    t->tilesPerPlane = (t->oh + rows - 1) / rows;
    t->bandRows = (rows - 1) * t->stride + t->kernel + 1;
    t->totalTiles = planes * t->tilesPerPlane;
    t->tilesPerCore = (t->totalTiles + cores - 1) / cores;
    context->SetBlockDim((t->totalTiles + t->tilesPerCore - 1) / t->tilesPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
