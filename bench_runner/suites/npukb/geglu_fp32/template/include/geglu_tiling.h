// Tiling data of geglu_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct GegluTilingData {
    uint32_t rows;         // M
    uint32_t hidden;       // H (x has 2H columns, y has H)
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t tileRows;     // rows per UB tile (1 .. rowsPerCore)
    uint32_t tileCols;     // columns of a half per UB tile: min(H rounded up to 8, 2048), a multiple of 8
};
