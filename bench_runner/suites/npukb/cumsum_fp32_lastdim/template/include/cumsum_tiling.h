// Tiling data of cumsum_fp32_lastdim, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct CumsumTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t lanes;        // rows per UB tile: min(64, rowsPerCore rounded up to 8)
    uint32_t tileCols;     // columns per UB tile, a multiple of 8: min(N rounded up to 8, 4096 / lanes)
};
