"""A kernel that needs ``g_coreType`` at compile time is compiled once per core type, as bisheng
compiles it, and each core runs its own pass (launcher.core_passes, toolchains/cpu_sim.py).

The kernel under test is the shipped MIX expert `matmul_bias_gelu_fp16` with its entry rewritten
the way Catlass (every NPUKernelBench L3 answer) writes kernels: a member ``operator()`` whose
template argument defaults to ``g_coreType`` and is explicitly specialised inside the class for
AIC and AIV — which g++ refuses until source_rewrite turns it into overloads, and which needs
``g_coreType`` as a constant. A helper whose body depends on ``g_coreType`` (kept out of line)
guards both parts: if the link merged the two passes' copies, one core type would run the other's
code, return early, and the launch would deadlock or leave the output unwritten.
"""

from __future__ import annotations

import pytest

from bench_runner import launcher, tasks
from bench_runner.evaluate import evaluate

pytestmark = pytest.mark.slow

TASK = "matmul_bias_gelu_fp16"

ENTRY_BODY = """    GET_TILING_DATA_WITH_STRUCT(MatmulGeluTilingData, tilingData, tiling);
    GM_ADDR ws = GetUserWorkspace(workspace);
    if ASCEND_IS_AIC {
        CubePart op;
        op.Init(a, b, ws, tilingData);
        op.Process();
    }
    if ASCEND_IS_AIV {
        VecPart op;
        op.Init(bias, y, ws, tilingData);
        op.Process();
    }
}
"""

CATLASS_STYLE = """    PassKernel kernel;
    kernel(a, b, bias, y, workspace, tiling);
}
"""

PASS_KERNEL = """
// Differs per pass, and both passes call it (noipa: not inlined, its value not propagated): the
// link must keep each pass's own copy, or one core type returns before doing its part.
__aicore__ inline __attribute__((noipa)) int32_t PassCore() { return g_coreType; }

template <int32_t CORE_TYPE> struct PassFlag { static constexpr int32_t ID = CORE_TYPE == AscendC::AIC ? 9 : 8; };

struct PassKernel {
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                      GM_ADDR tiling);

    template <>
    __aicore__ inline void operator()<AscendC::AIC>(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling) {
        if (PassFlag<g_coreType>::ID != 9) return;  // a compile-time constant: 9 only in the AIC pass
        if (PassCore() != AscendC::AIC) return;
        GET_TILING_DATA_WITH_STRUCT(MatmulGeluTilingData, tilingData, tiling);
        CubePart op;
        op.Init(a, b, GetUserWorkspace(workspace), tilingData);
        op.Process();
    }

    template <>
    __aicore__ inline void operator()<AscendC::AIV>(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling) {
        if (PassCore() != AscendC::AIV) return;
        GET_TILING_DATA_WITH_STRUCT(MatmulGeluTilingData, tilingData, tiling);
        VecPart op;
        op.Init(bias, y, GetUserWorkspace(workspace), tilingData);
        op.Process();
    }
};

"""


def _catlass_style(expert: str) -> str:
    assert ENTRY_BODY in expert, "the expert's entry changed: update ENTRY_BODY"
    head, _, _ = expert.partition('extern "C" __global__ __aicore__ void matmul_bias_gelu_custom(')
    entry = expert[len(head):expert.index(ENTRY_BODY)]
    return head + PASS_KERNEL + entry + CATLASS_STYLE


def test_a_mix_kernel_naming_g_coretype_is_compiled_once_per_core_type():
    task = tasks.get_task(TASK)
    source = _catlass_style(task.expert_kernel.read_text())
    assert launcher.core_passes(task, source) == ("aic", "aiv")
    result = evaluate(task, source, path="device_only", use_cache=False, baseline=False)
    assert result.passed, (result.verdict, result.reason, [d.message for d in result.diagnostics[:3]])


def test_a_mix_kernel_reading_the_core_at_run_time_stays_one_pass():
    task = tasks.get_task(TASK)
    assert launcher.core_passes(task, task.expert_kernel.read_text()) == ("mix",)


@pytest.mark.parametrize("core", ["aic", "aiv"])
def test_a_pass_for_one_core_type_makes_g_coretype_that_constant(core):
    task = tasks.get_task(TASK)
    text = launcher.kernel_source(task, "// k\n", core=core)
    assert f"#define g_coreType {launcher.CORE_TYPE_CONSTANTS[core]}" in text
    assert launcher.pass_symbol(task, "aiv") not in text  # one pass: no dispatcher, the entry keeps its name


def test_only_the_aic_pass_of_a_split_kernel_defines_the_dispatching_entry():
    task = tasks.get_task(TASK)
    aic = launcher.kernel_source(task, "// k\n", core="aic", split=True)
    aiv = launcher.kernel_source(task, "// k\n", core="aiv", split=True)
    assert f"#define {task.entry} {launcher.pass_symbol(task, 'aic')}" in aic
    assert f"#define {task.entry} {launcher.pass_symbol(task, 'aiv')}" in aiv
    dispatcher = f"#undef {task.entry}\n"  # then the entry itself, calling the running core's pass
    assert dispatcher in aic and dispatcher not in aiv
