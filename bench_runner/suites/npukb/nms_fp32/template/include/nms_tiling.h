// Tiling data of nms_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct NmsTilingData {
    uint32_t batch;          // B images
    uint32_t boxes;          // N boxes per image (N <= 4096)
    uint32_t padded;         // N rounded up to a multiple of 64 (256 bytes of floats)
    uint32_t imagesPerCore;  // core i handles images [i * imagesPerCore, min((i + 1) * imagesPerCore, B))
    float iouThreshold;      // a box is suppressed when its IoU with a kept box is > this
};
