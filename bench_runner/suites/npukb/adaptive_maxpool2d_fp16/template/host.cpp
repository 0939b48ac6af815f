// Host tiling of adaptive_maxpool2d_fp16: work items are (plane, band of output rows). The band
// height is sized so that per-row column maxima and the output tile fit the Unified Buffer;
// input rows are streamed in chunks of chunkRows; small problems are cut finer so every core
// gets work.
#include "akgen_host.h"
#include "adaptive_maxpool2d_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& in = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& out = context->GetOutputShape(0)->GetOriginShape();
    AdaptiveMaxPool2dTilingData* t = context->GetTilingData<AdaptiveMaxPool2dTilingData>();
    t->n = static_cast<uint32_t>(in.GetDim(0));
    t->c = static_cast<uint32_t>(in.GetDim(1));
    t->h = static_cast<uint32_t>(in.GetDim(2));
    t->w = static_cast<uint32_t>(in.GetDim(3));
    t->oh = static_cast<uint32_t>(out.GetDim(2));
    t->ow = static_cast<uint32_t>(out.GetDim(3));

    uint32_t khMax = 1, kwMax = 1;
    for (uint32_t i = 0; i < t->oh; ++i) {
        const uint32_t len = ((i + 1) * t->h + t->oh - 1) / t->oh - i * t->h / t->oh;
        if (len > khMax) khMax = len;
    }
    for (uint32_t j = 0; j < t->ow; ++j) {
        const uint32_t len = ((j + 1) * t->w + t->ow - 1) / t->ow - j * t->w / t->ow;
        if (len > kwMax) kwMax = len;
    }
    t->kwMax = kwMax;
    t->rowStride = (t->w + 15) / 16 * 16;
    t->owAligned = (t->ow + 15) / 16 * 16;

    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;

    // Input chunks: 2 buffers of chunkRows rows, at most 64 KiB together.
    const uint32_t rowBytes = t->rowStride * 2;
    uint32_t chunk = (64 * 1024) / (2 * rowBytes);
    if (chunk < 1) chunk = 1;
    if (chunk > khMax) chunk = khMax;
    t->chunkRows = chunk;
    // The rest of 160 KiB: per-band row maxima (R rows) + 2 output tiles + 1 gather tile (R rows
    // each, halves) + offset table (kwMax * owAligned uint32).
    constexpr uint32_t kBudget = 160 * 1024;
    const uint32_t fixed = 2 * chunk * rowBytes + kwMax * t->owAligned * 4;
    auto bytesFor = [&](uint32_t rows) { return fixed + rows * rowBytes + 3 * rows * t->owAligned * 2; };
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
    t->totalTiles = planes * t->tilesPerPlane;
    t->tilesPerCore = (t->totalTiles + cores - 1) / cores;
    context->SetBlockDim((t->totalTiles + t->tilesPerCore - 1) / t->tilesPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
