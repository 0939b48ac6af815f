// Tiling data of argmin_fp16_lastdim, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct ArgMinTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (any length: a row is reduced in chunks of tileCols)
    uint32_t rowsPerCore;  // rows handled by each core (the last may get fewer)
    uint32_t tileCols;     // elements per UB chunk: min(N rounded up to 16, 8192), a multiple of 16
};
