// Tiling data of moe_token_routing_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

constexpr uint32_t MOE_ROUTING_SYS_WORKSPACE = 16u * 1024u * 1024u;   // skipped by GetUserWorkspace on 910B

struct MoeRoutingTilingData {
    uint32_t tokens;          // T
    uint32_t topk;            // K (expert slots per token)
    uint32_t hidden;          // H
    uint32_t experts;         // E (<= 256)
    uint32_t expertsAligned;  // E rounded up to a multiple of 8: one core's row of counts in the workspace
    uint32_t tokensPerCore;   // core i handles tokens [i * tokensPerCore, min((i + 1) * tokensPerCore, T))
    uint32_t usedCores;       // block dim: ceil(T / tokensPerCore)
    uint32_t rowTile;         // x rows per UB tile
    uint32_t hiddenAligned;   // H rounded up to a multiple of 8: UB row stride of x tiles
};
