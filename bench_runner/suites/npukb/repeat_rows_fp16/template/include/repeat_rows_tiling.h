// Tiling data of repeat_rows_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct RepeatRowsTilingData {
    uint32_t rows;         // M (the output rows; the `repeats` attribute)
    uint32_t cols;         // N
    uint32_t rowsPerCore;  // core i writes rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t tileCols;     // columns per chunk: a multiple of 16 (32 bytes), <= 8192
    uint32_t tileRows;     // rows written per output copy (tileRows * tileCols * 2 <= 32 KiB)
};
