// Tiling data of sin_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct SinTilingData {
    uint32_t totalLength;  // N, the number of elements
    uint32_t blockLength;  // elements per core, a multiple of 16; the last used core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile, a multiple of 16
};
