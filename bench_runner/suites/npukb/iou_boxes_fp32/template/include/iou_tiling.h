// Tiling data of iou_boxes_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct IouTilingData {
    uint32_t n;            // rows of boxes1 (and of the output)
    uint32_t m;            // rows of boxes2 (columns of the output)
    uint32_t rowsPerCore;  // core i handles output rows [i * rowsPerCore, min((i + 1) * rowsPerCore, N))
    uint32_t colTile;      // boxes2 / output columns per UB tile: a multiple of 8, <= 2048
    uint32_t rowTile;      // output rows per output tile (rowTile * colTile <= 8192 floats)
};
