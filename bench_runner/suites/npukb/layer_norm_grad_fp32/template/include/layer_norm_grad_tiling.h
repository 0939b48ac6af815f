// Tiling data of layer_norm_grad_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct LayerNormGradTilingData {
    uint32_t rows;         // M
    uint32_t cols;         // N (at most 4096)
    uint32_t rowsPerCore;  // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t colsAligned;  // N rounded up to a multiple of 8 (a UB row stride)
    float eps;             // attribute 0
};
