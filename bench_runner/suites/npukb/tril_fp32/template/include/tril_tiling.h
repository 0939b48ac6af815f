// Tiling data of tril_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct TrilTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t tileCols;     // columns per Unified Buffer tile: a multiple of 64 (256 bytes), <= 4096
    int32_t diagonal;      // the `diagonal` attribute
};
