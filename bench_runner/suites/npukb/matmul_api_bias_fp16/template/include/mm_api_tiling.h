// Tiling data of matmul_api_bias_fp16: the TCubeTiling of the high-level Matmul API, filled on
// the host by matmul_tiling::MultiCoreMatmulTiling (tiling/tiling_api.h).
#pragma once
#include "tiling/tiling_api.h"

struct MatmulApiTilingData {
    TCubeTiling cube;  // usedCoreNum, M, N, Ka, Kb, singleCoreM/N/K, baseM/N/K, ... (CANN's fields)
};
