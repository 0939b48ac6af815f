// Tiling data of adaptive_maxpool2d_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct AdaptiveMaxPool2dTilingData {
    uint32_t n, c, h, w;        // input [N, C, H, W]
    uint32_t oh, ow;            // output spatial size (= attributes output_h, output_w)
    uint32_t kwMax;             // longest column window: max over j of colEnd(j) - colStart(j)
    uint32_t chunkRows;         // input rows copied into UB at once (tall windows are streamed)
    uint32_t rowsPerTile;       // output rows of one plane computed per tile
    uint32_t tilesPerPlane;     // ceil(OH / rowsPerTile)
    uint32_t totalTiles;        // N * C * tilesPerPlane work items
    uint32_t tilesPerCore;      // core i handles items [i * tilesPerCore, min((i + 1) * tilesPerCore, totalTiles))
    uint32_t rowStride;         // UB row stride, halves: W rounded up to a multiple of 16
    uint32_t owAligned;         // OW rounded up to a multiple of 16
};
