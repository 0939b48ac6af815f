// Tiling data of fast_gelu_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct FastGeluTilingData {
    uint32_t totalLength;  // N
    uint32_t blockLength;  // elements per core, a multiple of 16 (32 bytes); the last core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile, a multiple of 16
};
