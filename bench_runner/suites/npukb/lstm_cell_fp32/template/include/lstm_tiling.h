// Tiling data of lstm_cell_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct LstmTilingData {
    uint32_t batch;        // B
    uint32_t hidden;       // H (gates has 4H columns)
    uint32_t colTile;      // hidden columns per tile: a multiple of 8, <= 2048
    uint32_t rowTile;      // batch rows per tile (rowTile * colTile <= 2048)
    uint32_t colBlocks;    // ceil(H / colTile)
    uint32_t totalTiles;   // ceil(B / rowTile) * colBlocks; tile t = (row block t / colBlocks, col block t % colBlocks)
    uint32_t tilesPerCore; // core i handles tiles [i * tilesPerCore, min((i + 1) * tilesPerCore, totalTiles))
};
