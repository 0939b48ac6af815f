// Tiling data of logsumexp_fp32_rows, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct LogSumExpTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (any length: a row is processed in chunks of tileCols)
    uint32_t rowsPerCore;  // rows handled by each core (the last may get fewer)
    uint32_t tileCols;     // elements per UB chunk: min(N rounded up to 8, 8192), a multiple of 8
};
