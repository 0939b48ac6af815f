// Tiling data of bias_add_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct BiasAddTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (1 <= N <= 16384)
    uint32_t colsPadded;   // N rounded up to 16 halves: the row pitch of a tile in the Unified Buffer
    uint32_t rowsPerCore;  // whole rows per core; the last used core gets the rest
    uint32_t rowsPerTile;  // rows moved per DataCopyPad: max(1, min(rowsPerCore, 4096 / colsPadded))
};
