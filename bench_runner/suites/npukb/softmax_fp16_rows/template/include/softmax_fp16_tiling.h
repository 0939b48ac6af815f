// Tiling data of softmax_fp16_rows, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct SoftmaxFp16TilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (at most 4096)
    uint32_t rowsPerCore;  // rows handled by each core (the last may get fewer)
    uint32_t colsAligned;  // N rounded up to a multiple of 16 elements (32 bytes of half, 64 of float)
};
