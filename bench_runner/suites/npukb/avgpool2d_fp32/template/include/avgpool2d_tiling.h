// Tiling data of avgpool2d_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct AvgPool2dTilingData {
    uint32_t n, c, h, w;        // input [N, C, H, W]
    uint32_t oh, ow;            // output spatial size
    uint32_t kernel;            // square window side
    uint32_t stride;            // same stride along H and W
    uint32_t padding;           // implicit zero border on every side
    uint32_t countIncludePad;   // 1: divide by kernel^2; 0: divide by the number of real elements
    uint32_t rowsPerTile;       // output rows of one plane computed per tile
    uint32_t tilesPerPlane;     // ceil(OH / rowsPerTile)
    uint32_t totalTiles;        // N * C * tilesPerPlane work items
    uint32_t tilesPerCore;      // core i handles items [i * tilesPerCore, min((i + 1) * tilesPerCore, totalTiles))
    uint32_t rowStride;         // UB row stride of an input band, floats: multiple of 8, >= W + padding
    uint32_t bandRows;          // UB rows of an input band: (rowsPerTile - 1) * stride + kernel + 1
    uint32_t owAligned;         // OW rounded up to a multiple of 8
};
