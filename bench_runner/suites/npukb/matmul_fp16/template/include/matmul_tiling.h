// Tiling data of matmul_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct MatmulTilingData {
    uint32_t M, K, N;      // A is M x K, B is K x N, C is M x N (row-major)
    uint32_t baseM;        // rows of one output tile (a multiple of 16)
    uint32_t baseN;        // columns of one output tile (a multiple of 16)
    uint32_t baseK;        // K per Mmad (a multiple of 16)
    uint32_t stepK;        // K per GM -> L1 load (a multiple of baseK)
    uint32_t mTiles;       // ceil(M / baseM)
    uint32_t nTiles;       // ceil(N / baseN)
    uint32_t usedCores;    // block dim; output tile t = (t / nTiles, t % nTiles) goes to core t % usedCores
};
