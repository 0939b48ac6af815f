// register/tilingdata_base.h — host-side tiling struct macros (op_host tiling headers).
#pragma once

#include "../ascend_sim/tiling_macros.h"
