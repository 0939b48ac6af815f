// Tiling data of split_lastdim_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct SplitTilingData {
    uint32_t rows;         // M
    uint32_t colsA;        // N1 (split_size): columns of y1
    uint32_t colsB;        // N2: columns of y2
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t tileCols;     // columns per copy chunk: a multiple of 8 (32 bytes), <= 8192
    uint32_t tileRows;     // rows per copy (tileRows * tileCols * 4 <= 32 KiB, <= 4095)
};
