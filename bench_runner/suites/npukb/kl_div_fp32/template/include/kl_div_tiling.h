// Tiling data of kl_div_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct KlDivTilingData {
    uint32_t totalLength;  // M * N
    uint32_t rows;         // M (the batchmean divisor)
    uint32_t blockLength;  // elements per core (multiple of 8); the last core gets the rest
    uint32_t tileLength;   // elements per UB tile (multiple of 8, <= 4096; blockLength <= 64 tiles)
    uint32_t usedCores;    // the launch width (blocks), <= the AIV core count (SyncAll)
};
// Workspace: usedCores * 8 floats; core i writes its partial sum at float offset 8 * i, then
// SyncAll; core 0 adds them and divides by M.
