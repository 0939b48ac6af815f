// Tiling data of triu_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct TriuTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t tileCols;     // columns per Unified Buffer tile: a multiple of 128 (256 bytes), <= 2048
    int32_t diagonal;      // the `diagonal` attribute
};
