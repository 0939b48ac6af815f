// Tiling data of softmax_grad_fp32_rows, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct SoftmaxGradTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (at most 8192)
    uint32_t rowsPerCore;  // rows handled by each core (the last may get fewer)
    uint32_t colsAligned;  // N rounded up to a multiple of 8 floats (32 bytes)
};
