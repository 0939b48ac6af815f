// Tiling data of ffn_gelu_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct FfnTilingData {
    uint32_t M, H, F;      // x is M x H, w1 H x F, b1 F, w2 F x H, y M x H
    uint32_t baseM;        // rows of one row block (a multiple of 16); a block owns whole row blocks
    uint32_t baseN;        // output columns per Mmad / Fixpipe (a multiple of 16)
    uint32_t baseK;        // K per Mmad (a multiple of 16)
    uint32_t stepK;        // K per GM -> L1 load (a multiple of baseK)
    uint32_t fPad;         // F rounded up to 16: row stride (elements) of both workspace areas
    uint32_t mTiles;       // ceil(M / baseM)
    uint32_t usedCores;    // block dim (AIC + 2 AIV each); row block t goes to block t % usedCores
    uint32_t rowChunk;     // rows an AIV processes per vector pass
};

// System workspace the kernel's GetUserWorkspace() skips (16 MiB on 910B).
constexpr uint32_t FFN_SYS_WORKSPACE = 16 * 1024 * 1024;
