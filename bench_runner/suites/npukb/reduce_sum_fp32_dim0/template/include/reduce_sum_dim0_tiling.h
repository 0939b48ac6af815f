// Tiling data of reduce_sum_fp32_dim0, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct ReduceSumDim0TilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N
    uint32_t colsPerCore;  // columns per core, a multiple of 8 (32 bytes); the last core gets the rest
    uint32_t tileCols;     // columns per UB tile: min(colsPerCore, 2048), a multiple of 8
    uint32_t tileRows;     // rows per UB tile: max(1, min(M, 8192 / tileCols))
};
