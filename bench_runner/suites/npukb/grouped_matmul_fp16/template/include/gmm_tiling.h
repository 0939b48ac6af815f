// Tiling data of grouped_matmul_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct GroupedMatmulTilingData {
    uint32_t G, M, K, N;   // x is M x K, w is G x K x N, group_list G (int64 cumulative ends), y is M x N
    uint32_t baseM;        // rows of one output tile (a multiple of 16)
    uint32_t baseN;        // columns of one output tile (a multiple of 16)
    uint32_t baseK;        // K per Mmad (a multiple of 16)
    uint32_t stepK;        // K per GM -> L1 load (a multiple of baseK)
    uint32_t nTiles;       // ceil(N / baseN)
    uint32_t usedCores;    // block dim; the i-th tile in (group, row block, column block) order goes to core i % usedCores
};
