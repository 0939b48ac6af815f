// Tiling data of batch_norm_train_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct BatchNormTrainTilingData {
    uint32_t batch;         // N
    uint32_t channels;      // C
    uint32_t hw;            // HW (at most 4096)
    uint32_t hwAligned;     // HW rounded up to a multiple of 8 (a UB row stride)
    uint32_t chPerCore;     // core i handles channels [i * chPerCore, min((i + 1) * chPerCore, C))
    uint32_t tileN;         // samples per UB tile: clamp(8192 / hwAligned, 1, N)
    float eps;              // attribute 0
};
