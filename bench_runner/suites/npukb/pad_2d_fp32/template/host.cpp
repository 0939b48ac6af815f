// Host tiling of pad_2d_fp32: output rows split over the cores; the input part of a row goes in
// chunks of tileCols columns, tileRows rows at a time; borders come from a value-filled buffer.
#include "akgen_host.h"
#include "pad_2d_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kMaxCols = 8192;       // floats (32 KiB)
    constexpr uint32_t kTileBytes = 32 * 1024;
    const gert::Shape& in = context->GetInputShape(0)->GetOriginShape();
    const uint32_t h = static_cast<uint32_t>(in.GetDim(0));
    const uint32_t w = static_cast<uint32_t>(in.GetDim(1));
    const auto* attrs = context->GetAttrs();
    const uint32_t top = static_cast<uint32_t>(*attrs->GetInt(0));
    const uint32_t bottom = static_cast<uint32_t>(*attrs->GetInt(1));
    const uint32_t left = static_cast<uint32_t>(*attrs->GetInt(2));
    const uint32_t right = static_cast<uint32_t>(*attrs->GetInt(3));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;

    Pad2dTilingData* t = context->GetTilingData<Pad2dTilingData>();
    t->inRows = h;
    t->inCols = w;
    t->outRows = h + top + bottom;
    t->outCols = w + left + right;
    t->padTop = top;
    t->padLeft = left;
    uint32_t perCore = (t->outRows + cores - 1) / cores;
    if (perCore == 0) perCore = 1;
    t->rowsPerCore = perCore;
    const uint32_t wPad = (w + 7) / 8 * 8;
    t->tileCols = wPad < kMaxCols ? wPad : kMaxCols;
    uint32_t tileRows = kTileBytes / (t->tileCols * 4);
    if (tileRows > perCore) tileRows = perCore;
    if (tileRows > 4095) tileRows = 4095;
    t->tileRows = tileRows ? tileRows : 1;
    const uint64_t fillNeed = static_cast<uint64_t>((t->outCols + 7) / 8 * 8) * perCore;
    t->fillCols = fillNeed < kMaxCols ? static_cast<uint32_t>(fillNeed) : kMaxCols;
    t->value = *attrs->GetFloat(4);
    context->SetBlockDim((t->outRows + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
