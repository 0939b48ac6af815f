// Tiling data of quant_matmul_int8, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct QuantMatmulTilingData {
    uint32_t M, K, N;      // x is M x K, w is N x K (int8), y is M x N (half), deq_scale N (uint64)
    uint32_t baseM;        // rows of one output tile (a multiple of 16)
    uint32_t baseN;        // columns of one output tile (a multiple of 16)
    uint32_t baseK;        // K per Mmad (a multiple of 32)
    uint32_t stepK;        // K per GM -> L1 load (a multiple of baseK)
    uint32_t mTiles;       // ceil(M / baseM)
    uint32_t nTiles;       // ceil(N / baseN)
    uint32_t usedCores;    // block dim; output tile t = (t / nTiles, t % nTiles) goes to core t % usedCores
};
