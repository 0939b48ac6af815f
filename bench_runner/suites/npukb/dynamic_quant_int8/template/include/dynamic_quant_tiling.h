// Tiling data of dynamic_quant_int8, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct DynamicQuantTilingData {
    uint32_t rows;          // M
    uint32_t cols;          // K
    uint32_t rowsPerCore;   // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t tileCols;      // columns per UB chunk: a multiple of 64, <= 4096 (K > tileCols: two passes)
    uint32_t scaleBatch;    // scales collected in UB before one copy out (multiple of 8, <= 1024)
};
