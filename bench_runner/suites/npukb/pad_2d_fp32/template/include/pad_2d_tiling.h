// Tiling data of pad_2d_fp32, written by the host tiling and read by the kernel.
#pragma once
#include <cstdint>

struct Pad2dTilingData {
    uint32_t inRows;       // H
    uint32_t inCols;       // W
    uint32_t outRows;      // H + pad_top + pad_bottom
    uint32_t outCols;      // W + pad_left + pad_right
    uint32_t padTop;
    uint32_t padLeft;
    uint32_t rowsPerCore;  // core i writes output rows [i * rowsPerCore, min((i + 1) * rowsPerCore, outRows))
    uint32_t tileCols;     // columns per copy chunk: a multiple of 8, <= 8192
    uint32_t tileRows;     // rows per copy (tileRows * tileCols * 4 <= 32 KiB, <= 4095)
    uint32_t fillCols;     // floats in the value-filled UB buffer: a multiple of 8, <= 8192
    float value;           // the `value` attribute
};
