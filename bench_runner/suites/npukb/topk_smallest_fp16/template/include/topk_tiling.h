// Tiling data of topk_smallest_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct TopkTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (the last dim, searched)
    uint32_t k;            // values kept per row
    uint32_t colsAligned;  // N rounded up to a multiple of 16: UB row stride
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t rowTile;      // rows per UB tile (rowTile * colsAligned <= 16384, at least 1)
    uint32_t workLength;   // halves of the ReduceMin work buffer: colsAligned / 8 + 128
};
