// Host tiling of interpolate_bilinear_fp32: work items are (plane, band of output rows); a band
// is sized so that its input rows, their horizontal interpolation and the output fit the UB,
// and small problems are cut finer so that every vector core gets work.
#include "akgen_host.h"
#include "interp_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& in = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& out = context->GetOutputShape(0)->GetOriginShape();
    InterpTilingData* t = context->GetTilingData<InterpTilingData>();
    t->n = static_cast<uint32_t>(in.GetDim(0));
    t->c = static_cast<uint32_t>(in.GetDim(1));
    t->h = static_cast<uint32_t>(in.GetDim(2));
    t->w = static_cast<uint32_t>(in.GetDim(3));
    t->oh = static_cast<uint32_t>(out.GetDim(2));
    t->ow = static_cast<uint32_t>(out.GetDim(3));
    t->alignCorners = *context->GetAttrs()->GetAttrPointer<bool>(2) ? 1 : 0;
    if (t->alignCorners) {
        t->scaleH = t->oh > 1 ? static_cast<float>(t->h - 1) / static_cast<float>(t->oh - 1) : 0.0f;
        t->scaleW = t->ow > 1 ? static_cast<float>(t->w - 1) / static_cast<float>(t->ow - 1) : 0.0f;
    } else {
        t->scaleH = static_cast<float>(t->h) / static_cast<float>(t->oh);
        t->scaleW = static_cast<float>(t->w) / static_cast<float>(t->ow);
    }
    t->wAligned = (t->w + 7) / 8 * 8;
    t->owAligned = (t->ow + 7) / 8 * 8;

    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    auto inRows = [&](uint32_t rows) {
        const uint32_t r = static_cast<uint32_t>(static_cast<float>(rows - 1) * t->scaleH) + 3;
        return r < t->h ? r : t->h;
    };
    // UB floats: 2 input bands + horizontal rows + 2 output tiles + 2 gather rows + 3 tables.
    auto bytesFor = [&](uint32_t rows) {
        return 4 * (2 * inRows(rows) * t->wAligned + inRows(rows) * t->owAligned + 2 * rows * t->owAligned +
                    5 * t->owAligned);
    };
    constexpr uint32_t kBudget = 160 * 1024;
    uint32_t rows = 1;
    while (rows < t->oh && bytesFor(rows + 1) <= kBudget) ++rows;
    const uint32_t planes = t->n * t->c;
    if (planes < cores) {
        const uint32_t split = (cores + planes - 1) / planes;
        const uint32_t want = (t->oh + split - 1) / split;
        if (want < rows) rows = want ? want : 1;
    }
    t->rowsPerTile = rows;
    t->maxInRows = inRows(rows);
    t->tilesPerPlane = (t->oh + rows - 1) / rows;
    t->totalTiles = planes * t->tilesPerPlane;
    t->tilesPerCore = (t->totalTiles + cores - 1) / cores;
    context->SetBlockDim((t->totalTiles + t->tilesPerCore - 1) / t->tilesPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
