// Tiling data of adamw_step_fp32, written by the host tiling and read by the kernel. The host
// folds the attributes and the step's bias corrections into the scalars below.
#pragma once
#include <cstdint>

struct AdamWTilingData {
    uint32_t totalLength;  // N
    uint32_t blockLength;  // elements per core (multiple of 8); the last core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile (multiple of 8, <= 2048)
    float decay;           // 1 - lr * weight_decay
    float beta1;
    float oneMinusBeta1;   // 1 - beta1
    float beta2;
    float oneMinusBeta2;   // 1 - beta2
    float eps;
    float stepSize;        // lr / (1 - beta1^step)
    float invSqrtBc2;      // 1 / sqrt(1 - beta2^step)
};
