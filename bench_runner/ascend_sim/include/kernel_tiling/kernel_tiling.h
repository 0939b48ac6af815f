// kernel_tiling/kernel_tiling.h — the tiling structs kernels read (CANN generates this header
// from the high-level APIs' host tiling definitions). ascend_sim has one definition per struct,
// shared by host and kernel: TCubeTiling (matmul_tiling_data.h), SoftMaxTiling, LayerNormTiling
// and TopkTiling (adv_tiling.h); kernels name them unqualified or as AscendC::tiling::X.
#pragma once

#include "../ascend_sim/std_headers.h"
#include "../ascend_sim/noinstr_begin.h"
#include "../ascend_sim/adv_tiling.h"
#include "../ascend_sim/matmul_tiling_data.h"
#include "../ascend_sim/noinstr_end.h"

namespace AscendC {
namespace tiling {
using ::LayerNormTiling;
using ::SoftMaxTiling;
using ::TCubeTiling;
using ::TopkTiling;
}  // namespace tiling
}  // namespace AscendC
