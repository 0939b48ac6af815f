// Tiling data of gather_rows_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct GatherRowsTilingData {
    uint32_t numIdx;       // K (output rows)
    uint32_t numRows;      // V (table rows; every index is in [0, V))
    uint32_t cols;         // D
    uint32_t rowsPerCore;  // core i produces output rows [i * rowsPerCore, min((i + 1) * rowsPerCore, K))
    uint32_t tileCols;     // columns per chunk: a multiple of 8 (32 bytes), <= 8192
    uint32_t tileRows;     // output rows per UB tile (tileRows * tileCols * 4 <= 32 KiB, <= 4095)
};
