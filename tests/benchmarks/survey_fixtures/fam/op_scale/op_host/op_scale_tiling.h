// Survey fixture: op_host tiling header of an op project (the kernel does not include it).
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(OpScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(OpScale, OpScaleTilingData)
}
