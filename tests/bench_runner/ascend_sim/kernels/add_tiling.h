// op_host-style tiling definition, shared by the host program and (in ascend_sim) the kernel.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, extra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddTiled, AddTilingData)
}  // namespace optiling
