// Tiling data of interpolate_bilinear_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct InterpTilingData {
    uint32_t n, c, h, w;       // input [N, C, H, W]
    uint32_t oh, ow;           // output spatial size
    uint32_t alignCorners;     // 1: align_corners = True
    float scaleH, scaleW;      // source-coordinate scales (see api_desc.md)
    uint32_t rowsPerTile;      // output rows of one plane per work item
    uint32_t maxInRows;        // input rows any work item needs, at most (UB band capacity)
    uint32_t tilesPerPlane;    // ceil(OH / rowsPerTile)
    uint32_t totalTiles;       // N * C * tilesPerPlane
    uint32_t tilesPerCore;     // core i handles items [i * tilesPerCore, min((i + 1) * tilesPerCore, totalTiles))
    uint32_t wAligned;         // W rounded up to a multiple of 8 (UB row stride of input rows)
    uint32_t owAligned;        // OW rounded up to a multiple of 8 (UB row stride of output rows)
};
