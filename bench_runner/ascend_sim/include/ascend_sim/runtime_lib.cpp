// Compiles the out-of-line ascend_sim runtime once (see build.py: ensure_pch). Kernels built with
// -DASCEND_SIM_PREBUILT_RUNTIME link this object instead of compiling the runtime themselves.
#define ASCEND_SIM_BUILDING_RUNTIME 1
#include "runtime_impl.h"
// The charged C routines the kernel object's calls are renamed to (cpu-sim's object check).
#include "scalar_math.h"
