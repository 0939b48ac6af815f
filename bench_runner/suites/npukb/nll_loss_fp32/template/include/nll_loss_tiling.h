// Tiling data of nll_loss_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct NllLossTilingData {
    uint32_t rows;          // M
    uint32_t cols;          // C (classes)
    uint32_t rowsPerCore;   // core i handles rows [i * rowsPerCore, min((i + 1) * rowsPerCore, M))
    uint32_t usedCores;     // the launch width (blocks), <= the AIV core count (SyncAll)
    uint32_t batch;         // targets handled per UB batch (multiple of 8, <= 4096)
    int32_t ignoreIndex;    // the `ignore_index` attribute
};
// Workspace: usedCores * 8 floats; core i writes {sum of its picked values, its counted rows}
// at float offset 8 * i, then SyncAll; core 0 folds them into the mean.
