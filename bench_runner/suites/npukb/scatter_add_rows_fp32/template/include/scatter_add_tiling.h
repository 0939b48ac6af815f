// Tiling data of scatter_add_rows_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct ScatterAddTilingData {
    uint32_t numRows;      // V (rows of x and y)
    uint32_t cols;         // D
    uint32_t numIdx;       // K (rows of src, entries of idx; every idx in [0, V))
    uint32_t rowsPerCore;  // core i owns output rows [i * rowsPerCore, min((i + 1) * rowsPerCore, V))
    uint32_t blockRows;    // output rows accumulated in UB at a time
    uint32_t tileCols;     // columns per chunk: a multiple of 8, <= 8192 (blockRows * tileCols <= 16384)
    uint32_t idxBatch;     // indices read per UB batch (multiple of 8, <= 4096)
};
