// Test fixture (akgen): tiling struct of the AddScaled op host, CANN op_host style.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddScaledTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(uint32_t, usedCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddScaled, AddScaledTilingData)
}  // namespace optiling
