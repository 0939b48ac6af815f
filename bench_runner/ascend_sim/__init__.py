"""ascend_sim: compile and run AscendC kernels on a CPU with hardware-rule checks and a cost model.

The C++ side lives in ``include/`` (kernel_operator.h, tikicpulib.h); ``build`` gives the g++
command lines. See docs/ascend_sim.md.
"""

from bench_runner.ascend_sim.build import (
    DEFAULT_SOC,
    SOC_NAMES,
    compile_command,
    ensure_pch,
    include_dir,
)

__all__ = ["DEFAULT_SOC", "SOC_NAMES", "compile_command", "ensure_pch", "include_dir"]
