// Tiling data of mse_loss_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct MseLossTilingData {
    uint32_t totalLength;  // N
    uint32_t blockLength;  // elements per core, a multiple of 8 (32 bytes); the last core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile, a multiple of 8
    float invTotal;        // 1 / N
};
