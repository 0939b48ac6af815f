// Tiling data of rope_interleaved_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct RopeInterleavedTilingData {
    uint32_t tokens;          // T
    uint32_t heads;           // H
    uint32_t dim;             // D (even); cos/sin rows hold D / 2 values
    uint32_t dimPadded;       // D rounded up to a multiple of 8 (a 32-byte float32 UB row)
    uint32_t halfPadded;      // D / 2 rounded up to a multiple of 8
    uint32_t tokensPerCore;   // core i handles tokens [i * tokensPerCore, min((i + 1) * tokensPerCore, T))
    uint32_t headsPerTile;    // heads per UB tile (headsPerTile * dimPadded <= 4096)
};
