// Tiling data of matmul_splitk_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct SplitKTilingData {
    uint32_t M, K, N;      // A is M x K, B is K x N, C is M x N (row-major); M <= 128, N <= 256
    uint32_t baseK;        // K per Mmad (a multiple of 16)
    uint32_t stepK;        // K per GM -> L1 load (a multiple of baseK)
    uint32_t kPerCore;     // K slice of one core (a multiple of stepK); core i takes [i * kPerCore, ...)
    uint32_t usedCores;    // block dim = ceil(K / kPerCore)
};
