// Tiling data of topk_largest_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct TopkTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (the last dim, searched)
    uint32_t k;            // values kept per row
    uint32_t colsAligned;  // N rounded up to a multiple of 8: UB row stride
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t rowTile;      // rows per UB tile (rowTile * colsAligned <= 8192, at least 1)
    uint32_t workLength;   // floats of the ReduceMax work buffer: colsAligned / 8 + 64
};
