// Tiling of the high-level Matmul test: the TCubeTiling from MultiCoreMatmulTiling plus flags.
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulHlTiling)
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
TILING_DATA_FIELD_DEF(int32_t, transA);
TILING_DATA_FIELD_DEF(int32_t, transB);
TILING_DATA_FIELD_DEF(int32_t, bias);
TILING_DATA_FIELD_DEF(int32_t, iterate);
END_TILING_DATA_DEF;
}  // namespace optiling
