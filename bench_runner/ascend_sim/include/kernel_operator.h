// kernel_operator.h — what AscendC kernels include. ascend_sim: a g++ emulation of the Ascend C
// programming interface (CPU-debug mode) with hardware-rule checks and a cost model.
// See docs/ascend_sim.md for what is covered.
#pragma once

#include "ascend_sim/std_headers.h"
#include "ascend_sim/noinstr_begin.h"
#include "ascend_sim/base.h"
#include "ascend_sim/half.h"
#include "ascend_sim/soc.h"
#include "ascend_sim/runtime.h"
#include "ascend_sim/host_api.h"
#include "ascend_sim/tensor.h"
#include "ascend_sim/pipe.h"
#include "ascend_sim/datacopy.h"
#include "ascend_sim/cube.h"
#include "ascend_sim/vec_common.h"
#include "ascend_sim/vec_ops.h"
#include "ascend_sim/vec_cast.h"
#include "ascend_sim/vec_reduce.h"
#include "ascend_sim/vec_cmpsel.h"
#include "ascend_sim/adv_api.h"
#include "ascend_sim/sort_api.h"
#include "ascend_sim/tiling.h"
#include "ascend_sim/misc.h"
#include "ascend_sim/noinstr_end.h"
// Last: from here on, host-library names are compile errors in the kernel (device_code.h).
#include "ascend_sim/device_code.h"
