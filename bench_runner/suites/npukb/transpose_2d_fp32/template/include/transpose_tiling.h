// Tiling data of transpose_2d_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct TransposeTilingData {
    uint32_t rows;          // M
    uint32_t cols;          // N
    uint32_t tileRows;      // rows of x per tile (multiple of 8): 64
    uint32_t tileCols;      // columns of x per tile (multiple of 8): 64
    uint32_t tilesM;        // ceil(M / tileRows)
    uint32_t tilesN;        // ceil(N / tileCols)
    uint32_t tilesPerCore;  // core i handles tiles [i * tilesPerCore, ...) of the tilesM x tilesN grid, row-major
};
