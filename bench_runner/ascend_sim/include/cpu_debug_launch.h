// cpu_debug_launch.h — what CANN's asc-devkit examples include under ASCENDC_CPU_DEBUG so that a
// direct-launch source's kernel<<<blockDim, l2ctrl, stream>>>(...) runs on the CPU. On cpu-sim the
// launch syntax is rewritten before compiling (bench_runner/ascend_sim/source_rewrite.py) and run
// by ascend_sim/kernel_launch.h, which kernel_operator.h already provides; this header keeps the
// examples' include working.
#pragma once
#include "kernel_operator.h"
