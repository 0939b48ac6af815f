// register/tilingdata_base.h — host-side tiling struct macros (op_host tiling headers).
#pragma once

#include "../ascend_sim/std_headers.h"
#include "../ascend_sim/noinstr_begin.h"
#include "../ascend_sim/tiling_macros.h"
#include "../ascend_sim/noinstr_end.h"
