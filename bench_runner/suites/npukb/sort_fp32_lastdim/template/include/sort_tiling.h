// Tiling data of sort_fp32_lastdim, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct SortTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (sorted dim), N <= 2048
    uint32_t padded;       // P: N rounded up to a power of two, at least 64 (UB row stride)
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t rowTile;      // rows sorted together per tile: min(2048 / P, rowsPerCore)
};
