// Tiling data of matmul_bias_gelu_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct MatmulGeluTilingData {
    uint32_t M, K, N;      // A is M x K, B is K x N, bias N, Y is M x N (row-major)
    uint32_t baseM;        // rows of one output tile (a multiple of 16)
    uint32_t baseN;        // columns of one output tile (a multiple of 16)
    uint32_t baseK;        // K per Mmad (a multiple of 16)
    uint32_t stepK;        // K per GM -> L1 load (a multiple of baseK)
    uint32_t mTiles;       // ceil(M / baseM)
    uint32_t nTiles;       // ceil(N / baseN)
    uint32_t usedCores;    // block dim (AIC + 2 AIV each); tile t goes to block t % usedCores
    uint32_t rowChunk;     // rows an AIV processes per vector pass
};

// System workspace the kernel's GetUserWorkspace() skips (16 MiB on 910B).
constexpr uint32_t MM_GELU_SYS_WORKSPACE = 16 * 1024 * 1024;
