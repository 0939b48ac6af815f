// Tiling data of arange_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct ArangeTilingData {
    uint32_t totalLength;  // N
    uint32_t blockLength;  // elements per core, a multiple of 128; the last used core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile: min(blockLength, 4096)
    float start;           // attribute `start`
    float step;            // attribute `step`
};
