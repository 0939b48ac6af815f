// Tiling data of moe_gating_topk_softmax_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct MoeGatingTilingData {
    uint32_t tokens;        // T
    uint32_t experts;       // E
    uint32_t k;             // experts selected per token
    uint32_t renormalize;   // 1: selected weights are divided by their sum
    uint32_t rowsPerCore;   // core i handles tokens [i * rowsPerCore, min((i + 1) * rowsPerCore, T))
    uint32_t rowTile;       // tokens per UB tile
    uint32_t eAligned;      // E rounded up to a multiple of 8: UB row stride of a logits tile
};
