// Test fixture (akgen): tiling struct and compile info of the ConcatList op host.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConcatListTilingData)
TILING_DATA_FIELD_DEF(uint32_t, tensorNum);
TILING_DATA_FIELD_DEF(uint32_t, hasBias);
TILING_DATA_FIELD_DEF_ARR(int64_t, 8, lengths);
TILING_DATA_FIELD_DEF(int64_t, biasLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConcatList, ConcatListTilingData)

struct ConcatListCompileInfo {
    uint32_t coreNum;
    uint64_t ubSize;
};
}  // namespace optiling
