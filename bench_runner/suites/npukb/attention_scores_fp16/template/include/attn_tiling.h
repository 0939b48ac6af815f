// Tiling data of attention_scores_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct AttnScoresTilingData {
    uint32_t BH, S, T, D;  // q is BH x S x D, k is BH x T x D, p is BH x S x T; D <= 128, T <= 2048
    uint32_t baseM;        // query rows per tile (a multiple of 16)
    uint32_t baseN;        // key columns per Mmad / Fixpipe chunk (a multiple of 16)
    uint32_t tPad;         // T rounded up to 16: row stride of a workspace slot, in floats
    uint32_t mTiles;       // ceil(S / baseM); tile t = (t / mTiles, t % mTiles) = (bh, row block)
    uint32_t usedCores;    // block dim (AIC + 2 AIV each); tile t goes to block t % usedCores
    float scale;           // 1 / sqrt(D)
};

// System workspace the kernel's GetUserWorkspace() skips (16 MiB on 910B).
constexpr uint32_t ATTN_SYS_WORKSPACE = 16 * 1024 * 1024;
