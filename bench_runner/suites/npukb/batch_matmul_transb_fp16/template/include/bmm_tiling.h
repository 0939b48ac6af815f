// Tiling data of batch_matmul_transb_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct BmmTilingData {
    uint32_t batch, M, K, N;  // A is batch x M x K, B is batch x N x K, C is batch x M x N
    uint32_t baseM;           // rows of one output tile (a multiple of 16)
    uint32_t baseN;           // columns of one output tile (a multiple of 16)
    uint32_t baseK;           // K per Mmad (a multiple of 16)
    uint32_t stepK;           // K per GM -> L1 load (a multiple of baseK)
    uint32_t mTiles;          // ceil(M / baseM)
    uint32_t nTiles;          // ceil(N / baseN)
    uint32_t usedCores;       // block dim; tile t = (batch t / (mTiles * nTiles), then m, n) goes to core t % usedCores
};
