// Tiling data of kv_rmsnorm_rope_cache_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct KvRmsNormRopeTilingData {
    uint32_t tokens;         // T
    uint32_t heads;          // NH (kv heads)
    uint32_t headDim;        // D (even)
    uint32_t slots;          // S (cache rows)
    uint32_t halfDim;        // D / 2
    uint32_t halfAligned;    // D / 2 rounded up to a multiple of 16 (one half of a head row in UB)
    uint32_t tokensPerCore;  // core i handles tokens [i * tokensPerCore, min((i + 1) * tokensPerCore, T))
    uint32_t tokenTile;      // tokens per UB tile
    uint32_t vRowAligned;    // NH * D rounded up to a multiple of 16 (UB row stride of v)
    float epsilon;           // RMSNorm epsilon
};
