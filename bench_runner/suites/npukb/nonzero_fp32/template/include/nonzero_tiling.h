// Tiling data of nonzero_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

constexpr uint32_t NONZERO_SYS_WORKSPACE = 16u * 1024u * 1024u;   // skipped by GetUserWorkspace on 910B

struct NonzeroTilingData {
    uint32_t total;      // N
    uint32_t perCore;    // elements per core, a multiple of 64; core i: [i * perCore, min((i + 1) * perCore, N))
    uint32_t tile;       // elements per UB tile, a multiple of 64
    uint32_t usedCores;  // block dim: ceil(N / perCore)
};
