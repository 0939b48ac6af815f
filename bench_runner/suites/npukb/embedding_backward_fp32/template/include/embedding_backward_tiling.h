// Tiling data of embedding_backward_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct EmbeddingBackwardTilingData {
    uint32_t numWeights;   // V (rows of grad_weight; every id in [0, V))
    uint32_t cols;         // D
    uint32_t numIds;       // K (tokens: rows of grad_out, entries of ids)
    int32_t paddingIdx;    // the `padding_idx` attribute (-1: none)
    uint32_t rowsPerCore;  // core i owns grad_weight rows [i * rowsPerCore, min((i + 1) * rowsPerCore, V))
    uint32_t blockRows;    // grad_weight rows accumulated in UB at a time
    uint32_t tileCols;     // columns per chunk: a multiple of 8, <= 8192 (blockRows * tileCols <= 16384)
    uint32_t idxBatch;     // ids read per UB batch (multiple of 8, <= 4096)
};
