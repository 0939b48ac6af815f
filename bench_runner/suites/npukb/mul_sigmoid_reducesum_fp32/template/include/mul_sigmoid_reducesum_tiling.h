// Tiling data of mul_sigmoid_reducesum_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct MulSigmoidReduceSumTilingData {
    uint32_t rows;          // M
    uint32_t cols;          // K
    uint32_t rowsPerCore;   // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t tileCols;      // columns per chunk: a multiple of 8, <= 4096 (K <= 4096*64)
    uint32_t rowsPerTile;   // rows per UB tile when a row fits one chunk (else 1)
    uint32_t outBatch;      // results collected in UB before one copy out (multiple of 8, >= rowsPerTile)
};
