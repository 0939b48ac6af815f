// Tiling data of rope_rotate_half_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct RopeTilingData {
    uint32_t tokens;          // T
    uint32_t heads;           // H
    uint32_t dim;             // D (even)
    uint32_t dimPadded;       // D rounded up to a multiple of 16 (a 32-byte float16 UB row)
    uint32_t tokensPerCore;   // core i handles tokens [i * tokensPerCore, min((i + 1) * tokensPerCore, T))
    uint32_t headsPerTile;    // heads per UB tile (headsPerTile * dimPadded <= 4096)
};
