// Tiling data of sgd_momentum_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct SgdMomentumTilingData {
    uint32_t totalLength;  // N
    uint32_t blockLength;  // elements per core (multiple of 8); the last core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile (multiple of 8, <= 2048)
    uint32_t nesterov;     // 1 if the `nesterov` attribute is true
    float lr;
    float momentum;
    float dampening;
    float weightDecay;
};
