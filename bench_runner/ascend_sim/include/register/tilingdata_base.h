// register/tilingdata_base.h — host-side tiling struct macros (op_host tiling headers).
// As in CANN, it brings the gert context types too: op_host tiling headers declare helpers on
// gert::TilingContext / TilingParseContext right after including it (RmsNormGrad).
#pragma once

#include "../ascend_sim/std_headers.h"
#if !defined(ASCEND_SIM_DEVICE_CODE_POISONED)  // a kernel including it after kernel_operator.h: macros only
#include "../exe_graph/runtime/tiling_context.h"
#endif
#include "../ascend_sim/noinstr_begin.h"
#include "../ascend_sim/tiling_macros.h"
#include "../ascend_sim/noinstr_end.h"
