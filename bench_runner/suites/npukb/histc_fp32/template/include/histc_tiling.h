// Tiling data of histc_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct HistcTilingData {
    uint32_t total;        // N
    uint32_t bins;         // number of bins
    uint32_t binsAligned;  // bins rounded up to a multiple of 8
    uint32_t perCore;      // elements per core (multiple of 8); core i: [i * perCore, min((i + 1) * perCore, N))
    uint32_t tile;         // elements per UB tile (multiple of 8)
    float minValue;        // lower edge of bin 0
    float maxValue;        // upper edge of the last bin (inclusive)
};
