// Tiling data of iamax_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

// CANN's system workspace precedes the user's; GetUserWorkspace(workspace) skips it (16 MiB on 910B).
constexpr uint32_t IAMAX_SYS_WORKSPACE = 16u * 1024u * 1024u;

struct IamaxTilingData {
    uint32_t totalLength;  // N
    uint32_t blockLength;  // elements per core, a multiple of 128; the last used core gets the rest
    uint32_t tileLength;   // elements per Unified Buffer tile: min(blockLength, 4096)
    uint32_t usedCores;    // launched cores = ceil(N / blockLength); one workspace slot each
};
