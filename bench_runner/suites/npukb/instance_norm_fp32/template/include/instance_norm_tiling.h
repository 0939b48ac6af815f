// Tiling data of instance_norm_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct InstanceNormTilingData {
    uint32_t groups;          // N * G: number of normalised groups, each contiguous in GM
    uint32_t groupsPerCore;   // core i handles groups [i * groupsPerCore, min((i + 1) * groupsPerCore, groups))
    uint32_t channels;        // C
    uint32_t chPerGroup;      // C / G = 1 (G = C)
    uint32_t hw;              // HW
    uint32_t hwAligned;       // HW rounded up to a multiple of 8 (a channel's UB row stride)
    float eps;                // attribute 0
};
