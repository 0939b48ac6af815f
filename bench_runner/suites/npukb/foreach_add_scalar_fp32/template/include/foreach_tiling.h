// Tiling data of foreach_add_scalar_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct ForeachTilingData {
    uint32_t length[3];    // N1, N2, N3
    uint32_t blockLength;  // elements of the virtual concatenation a|b|c per core (multiple of 8)
    uint32_t tileLength;   // elements per Unified Buffer tile (multiple of 8, <= 4096)
    float scalar;          // the `scalar` attribute
};
