// Tiling data of relu_fp32_dynamic, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct ReluTilingData {
    uint32_t totalLength;  // N
    uint32_t blockLength;  // elements per core (multiple of 8); the last core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile (multiple of 8)
};
