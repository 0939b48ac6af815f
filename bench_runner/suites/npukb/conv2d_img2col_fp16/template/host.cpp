// Host tiling of conv2d_img2col_fp16: tiles of whole output rows of one image (at most 256
// output pixels, and few enough that two col^T buffers fit L1), dealt round-robin to the AI cores.
#include "akgen_host.h"
#include "conv_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& w = context->GetInputShape(1)->GetOriginShape();
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24;
    ConvTilingData* t = context->GetTilingData<ConvTilingData>();
    t->N = static_cast<uint32_t>(x.GetDim(0));
    t->C = static_cast<uint32_t>(x.GetDim(1));
    t->H = static_cast<uint32_t>(x.GetDim(2));
    t->W = static_cast<uint32_t>(x.GetDim(3));
    t->CO = static_cast<uint32_t>(w.GetDim(0));
    t->KH = static_cast<uint32_t>(w.GetDim(2));
    t->KW = static_cast<uint32_t>(w.GetDim(3));
    t->HO = t->H - t->KH + 1;
    t->WO = t->W - t->KW + 1;
    // output pixels per tile: at most 256 (L0C) and what two col^T buffers of C * KH 32-byte
    // groups per pixel leave of L1 next to the weights (176 KiB each), in whole output rows
    uint32_t pLimit = 176 * 1024 / (t->C * t->KH * 32);
    if (pLimit > 256) pLimit = 256;
    uint32_t rows = (pLimit / 16 * 16) / t->WO;
    if (rows == 0) rows = 1;
    if (rows > t->HO) rows = t->HO;
    t->rowsPerTile = rows;
    t->hTiles = (t->HO + rows - 1) / rows;
    const uint32_t tiles = t->N * t->hTiles;
    t->usedCores = tiles < cores ? tiles : cores;
    context->SetBlockDim(t->usedCores);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
