// tikicpulib.h — what CANN CPU-debug host programs include: GmAlloc/GmFree, SetKernelMode,
// ICPU_RUN_KF, ICPU_SET_TILING_KEY. ascend_sim runs each core as a thread of this process.
#pragma once

#include "ascend_sim/std_headers.h"
#include "ascend_sim/noinstr_begin.h"
#include "ascend_sim/base.h"
#include "ascend_sim/half.h"
#include "ascend_sim/host_api.h"
#include "ascend_sim/tiling_macros.h"
#if !defined(ASCEND_SIM_PREBUILT_RUNTIME)
#include "ascend_sim/runtime.h"
#endif
#include "ascend_sim/noinstr_end.h"
