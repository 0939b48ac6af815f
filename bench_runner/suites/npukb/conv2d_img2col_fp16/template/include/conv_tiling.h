// Tiling data of conv2d_img2col_fp16, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct ConvTilingData {
    uint32_t N, C, H, W;   // x is N x C x H x W (NCHW)
    uint32_t CO, KH, KW;   // w is CO x C x KH x KW; CO <= 64, KW <= 16, C * KH <= 64
    uint32_t HO, WO;       // output H - KH + 1, W - KW + 1
    uint32_t rowsPerTile;  // output rows (ho) per tile: round16(rowsPerTile * WO) <= min(256, 176 KiB / (C * KH * 32))
    uint32_t hTiles;       // ceil(HO / rowsPerTile); tile t = (image t / hTiles, row block t % hTiles)
    uint32_t usedCores;    // block dim; tile t goes to core t % usedCores
};
