// Tiling data of masked_fill_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct MaskedFillTilingData {
    uint32_t totalLength;  // M * N
    uint32_t blockLength;  // elements per core (multiple of 32); the last core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile (multiple of 128)
    float value;           // the `value` attribute
};
