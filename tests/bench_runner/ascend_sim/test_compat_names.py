"""The kernel-side names public AscendC kernels use besides the big APIs (compat.h,
ascend_std.h): set_flag/wait_flag on event_t, g_coreType, __forceinline__, likely/unlikely,
float16_t, DivCeil/AlignUp, AscendCUtils, AscendC::Std, ListTensorDesc, LocalMemAllocator,
DumpTensor with a shape, ASSERT, get_block_idx.

Why: NPUKernelBench references and Ascend samples fail to compile on cpu-sim without them; each
must also behave as on CANN (the intrinsics drive the same emulated flags as SetFlag/WaitFlag,
so a missing set is still a DEADLOCK) and reject what CANN rejects.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from .simtools import KERNELS

SRC = KERNELS / "compat_names.cpp"
N = 1000  # elements per core for the public-style kernel: not a multiple of the 256-element tile


@pytest.fixture(scope="module")
def cn(sim):
    return sim.build(SRC, args=4)


@pytest.fixture(scope="module")
def cn_mix(sim):
    return sim.build(SRC, args=4, defines={"KERNEL_MODE": "MIX_MODE"})


def go(sim, exe, op, cores=1, n=N, seed=0, env=None):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, max(n * cores, 256)).astype(np.float32)
    p = np.zeros(16, np.int32)
    p[0], p[1] = op, n
    bufs = [x, np.zeros(4096, np.float32), np.zeros(512, np.uint64), p]
    return x, sim.run(exe, cores, bufs, env=env)


def line_of(text: str) -> int:
    return next(i for i, ln in enumerate(SRC.read_text().splitlines(), 1) if text in ln)


def test_public_style_kernel_is_correct_and_ordered(sim, cn):
    cores = 4
    x, run = go(sim, cn, 0, cores)
    assert run.returncode == 0, run.stderr
    assert run.report["findings"] == []
    np.testing.assert_allclose(run.outputs[1][: N * cores], x * 2 + 1, rtol=1e-6)
    # The flags order every tile: copy-in -> Muls -> Adds -> copy-out -> next copy-in.
    tl = [e for e in run.report["timeline"] if e["core"] == 0]
    kinds = {"MTE2": "in", "MTE3": "out", "Muls": "mul", "Adds": "add"}
    seq = [(kinds.get(e["pipe"]) or kinds.get(e["op"]), e) for e in tl]
    seq = [(k, e) for k, e in seq if k]
    assert [k for k, _ in seq] == ["in", "mul", "add", "out"] * 4  # DivCeil(1000, 256) tiles
    for (_, a), (_, b) in zip(seq, seq[1:], strict=False):
        assert a["end"] <= b["start"], (a, b)
    # Sane cycles: the serial chain bounds the core's time from below, and nothing else is there.
    busy = sum(e["end"] - e["start"] for _, e in seq)
    core0 = run.report["cores"][0]["cycles"]
    assert busy <= core0 <= busy + 2000
    assert run.report["total_cycles"] >= core0


def test_wait_flag_without_set_flag_is_deadlock(sim, cn):
    _, run = go(sim, cn, 1)
    assert run.returncode == 3
    f = run.report["findings"][0]
    assert (f["code"], f["api"], f["line"]) == (
        "DEADLOCK",
        "wait_flag",
        line_of("wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID3);"),
    )


def test_set_flag_never_waited_warns(sim, cn):
    _, run = go(sim, cn, 2)
    assert run.returncode == 0, run.stderr
    assert run.codes("warning") == ["SYNC_MISMATCH"]


def test_set_flag_on_pipes_without_an_event_is_bad_param(sim, cn):
    _, run = go(sim, cn, 3)
    assert run.returncode == 3
    assert run.codes("error") == ["BAD_PARAM"]
    assert "no hardware event connects" in run.stderr


def rows(run, first, count):
    return run.outputs[2].reshape(-1, 8)[first : first + count, :6].astype(np.int64)


def test_core_type_and_block_builtins_aiv(sim, cn):
    _, run = go(sim, cn, 4, cores=3)
    assert run.returncode == 0, run.stderr
    # AIV launch: every core is an AIV (2), its own hardware block, no sub-blocks.
    want = [[2, b, 3, 0, 1, 1] for b in range(3)]
    np.testing.assert_array_equal(rows(run, 16, 3), want)
    assert not rows(run, 0, 3).any()  # no AIC rows


def test_core_type_and_block_builtins_mix(sim, cn_mix):
    _, run = go(sim, cn_mix, 4, cores=2)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(rows(run, 0, 2), [[1, b, 2, 0, 1, 0] for b in range(2)])
    # The two AIVs of a group share the hardware block index; GetBlockIdx() = block * 2 + sub.
    want = [[2, i // 2, 2, i % 2, 2, 1] for i in range(4)]
    np.testing.assert_array_equal(rows(run, 16, 4), want)


@pytest.mark.parametrize("lanes", [20, 64])
def test_ascendc_utils_set_mask_drives_level0(sim, cn, lanes):
    x, run = go(sim, cn, 5, n=lanes)
    assert run.returncode == 0, run.stderr
    want = x[:64].copy()
    want[:lanes] += 100
    np.testing.assert_array_equal(run.outputs[1][:64], want)
    assert list(run.outputs[2][:2]) == [16, 16]  # GetBitSize(2), GetC0Count(2)


def test_integer_helpers_and_std(sim, cn):
    n = 1000
    _, run = go(sim, cn, 6, n=n)
    assert run.returncode == 0, run.stderr
    want = [
        -(-n // 32),
        -(-n // 32) * 32,
        -(-n // 7),
        -(-n // 16),
        -(-n // 3),
        0,  # CeilDivision by 0 is 0 in CANN
        max(n, 100),
        min(n, 100),
        -(-n // 5),
        -(-n // 64) * 64,
        n // 4,
        n,
        int(math.sqrt(np.float32(n)) * 1000),
        n + 5,
        32 * 1000 + 3,
    ]
    np.testing.assert_array_equal(run.outputs[2][: len(want)].astype(np.int64), want)


def test_list_tensor_desc(sim, cn):
    x, run = go(sim, cn, 7)
    assert run.returncode == 0, run.stderr
    z = run.outputs[1]
    np.testing.assert_array_equal(z[:8], [2, 4, 8, 32, 2, 2, 16, 32])
    assert z[8] == np.float32(x[1] + x[33])


def test_local_mem_allocator(sim, cn):
    x, run = go(sim, cn, 8)
    assert run.returncode == 0, run.stderr
    np.testing.assert_allclose(run.outputs[1][:256], x[:256] * 3, rtol=1e-6)
    assert list(run.outputs[2][:2]) == [2048, 1024]  # GetCurAddr after 2 x 1 KiB; b follows a


def test_two_allocators_on_one_memory_are_refused(sim, cn):
    _, run = go(sim, cn, 9)
    assert run.returncode == 3 and run.codes("error") == ["BAD_PARAM"]
    assert "only one LocalMemAllocator" in run.stderr


def test_assert_is_empty_as_on_the_npu_and_ascendc_assert_checks(sim, cn):
    """CANN's device build defines ASSERT(x) as nothing: a false one, even one naming a function
    that does not exist, compiles and passes, and so does one with no semicolon before it (not
    even an empty statement); ascendc_assert is a CRASH at its line."""
    _, run = go(sim, cn, 10)
    assert run.returncode == 3
    f = run.report["findings"][0]
    assert (f["code"], f["line"]) == ("CRASH", line_of("ascendc_assert(n == 0);"))


def test_dump_tensor_with_shape(sim, cn):
    _, run = go(sim, cn, 11)
    assert run.returncode == 0, run.stderr
    assert "DumpTensor shape: [2, 4]" in run.stdout and "desc=7" in run.stdout


KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
%s
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    %s
}
"""


@pytest.mark.parametrize(
    ("decl", "body", "message"),
    [
        # the intrinsic takes an event_t, as the NPU compiler's does: an int does not convert
        ("", "int id = 0; set_flag(PIPE_MTE2, PIPE_V, id);", "invalid conversion from 'int' to 'event_t'"),
        # in CANN's CPU twin g_coreType is a variable (extern int32_t), not a constant expression
        (
            "template <int32_t C = g_coreType> __aicore__ inline int f() { return C; }",
            "(void)f();",
            "g_coreType",
        ),
        # a branch hint does not let host code through
        ("", "if (likely(x != z)) memset(x, 0, 4);", "attempt to use poisoned \"memset\""),
        # AscendC::Std::sqrt accepts what the scalar unit computes only
        ("", "(void)Std::sqrt(2.0);", "current data type is not supported on current device!"),
        # a position of another memory
        (
            "",
            "LocalMemAllocator<Hardware::UB> a; (void)a.Alloc<TPosition::A1, half>(16);",
            "logic pos and hardware pos not matched.",
        ),
    ],
    ids=["set_flag_int_event", "g_coreType_not_constexpr", "likely_keeps_poison", "std_sqrt_double", "alloc_pos"],
)
def test_rejected_like_cann(sim, decl, body, message):
    proc, _ = sim.compile(KERNEL % (decl, body), args=2)
    assert proc.returncode != 0
    assert message in proc.stderr, proc.stderr[-3000:]


def test_accepted_spellings(sim):
    """Spellings seen in public kernels compile: event_t::EVENT_ID0, AscendC::EVENT_ID0 next to
    `using namespace AscendC`, FetchEventID cast to event_t, g_coreType == AscendC::AIV."""
    body = """
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e); WaitFlag<HardEvent::V_S>(e);
        SetFlag<HardEvent::MTE2_V>(AscendC::EVENT_ID1); WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
        set_flag(PIPE_MTE3, PIPE_MTE2, event_t::EVENT_ID0); wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        pipe_barrier(PIPE_ALL);
        if (g_coreType == AscendC::AIV) { float16_t h = 1; float32_t f = h; (void)f; }
        uint32_t a = AscendC::AlignUp(100, 32) + AscendC::Std::max(1u, 2u);
        (void)a;
    """
    proc, _ = sim.compile(KERNEL % ("", "TPipe pipe;" + body), args=2)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_global_names_without_using_namespace(sim):
    """asc-devkit's examples call GetTPipePtr / GetSysWorkSpacePtr unqualified without `using
    namespace AscendC` (CANN declares them at global scope) and mark the Matmul workspace
    parameter __kfc_workspace__."""
    src = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(__kfc_workspace__ __gm__ uint8_t* x, GM_ADDR z) {
    AscendC::TPipe pipe;
    AscendC::TPipe* p = GetTPipePtr();
    if (p != &pipe || GetSysWorkSpacePtr() == nullptr) { AscendC::Trap(); }
}
"""
    proc, _ = sim.compile(src, args=2)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_tbufpool_ranges_are_reused(sim, cn):
    x, run = go(sim, cn, 12)
    assert run.returncode == 0, run.stderr
    assert run.report["findings"] == []
    np.testing.assert_allclose(run.outputs[1][:256], x[:256] * 2, rtol=1e-6)
    np.testing.assert_allclose(run.outputs[1][256:512], x[:256] + 5, rtol=1e-6)
    assert run.outputs[2][0] == 0  # pool2's output buffer is pool1's: the same UB bytes


def test_tbufpool_reset_invalidates_its_tensors(sim, cn):
    _, run = go(sim, cn, 13)
    assert run.returncode == 3 and run.codes("error") == ["USE_AFTER_FREE"]


def test_tbufpool_overflow(sim, cn):
    _, run = go(sim, cn, 14)
    assert run.returncode == 3 and run.codes("error") == ["UB_OVERFLOW"]
    assert "more than its 2048 bytes" in run.stderr


def test_matmul_tiling_enable_bias_is_set_bias(tmp_path):
    """EnableBias, the newer name of MultiCoreMatmulTiling::SetBias, as CANN's examples call it."""
    import subprocess

    from bench_runner.ascend_sim import build

    src = tmp_path / "host.cpp"
    src.write_text('#include "tiling/tiling_api.h"\n#include <cstdio>\n'
                   "int main() { matmul_tiling::MultiCoreMatmulTiling a, b;\n"
                   "  int r = a.EnableBias(true) | b.SetBias(true);\n"
                   "  using namespace matmul_tiling;\n"
                   "  for (auto* t : {&a, &b}) { t->SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);\n"
                   "    t->SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);\n"
                   "    t->SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT); }\n"
                   "  optiling::TCubeTiling ta, tb; a.SetDim(1); b.SetDim(1); a.SetShape(32, 32, 32); b.SetShape(32, 32, 32);\n"
                   "  a.SetOrgShape(32, 32, 32); b.SetOrgShape(32, 32, 32); a.GetTiling(ta); b.GetTiling(tb);\n"
                   "  std::printf(\"%d %d %d\\n\", r, ta.get_isBias(), tb.get_isBias()); return 0; }\n")
    exe = tmp_path / "host"
    proc = subprocess.run(["g++", "-std=c++17", f"-I{build.include_dir()}", str(src), "-o", str(exe)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True).stdout.split()
    assert out == ["0", "1", "1"], out


MIN_MAX = """
#include "kernel_operator.h"
namespace Lib {  // Catlass's form: unqualified min on unsigned values, bisheng's global builtin
__aicore__ inline uint32_t Pick(uint32_t a, uint32_t b) { return min(a, b); }
__aicore__ inline float Larger(float a, int b) { return max(a, b); }
}  // namespace Lib
namespace Own {  // a kernel's own min wins wherever it matches
template <class T> __aicore__ inline T min(T a, T b) { return a < b ? a : b + 1000; }
__aicore__ inline int Use(int a) { return min(a, 3); }
}  // namespace Own
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    AscendC::GlobalTensor<float> out;
    out.SetGlobalBuffer((__gm__ float*)z, 8);
    out.SetValue(0, static_cast<float>(Lib::Pick(5u, 3u)));
    out.SetValue(1, Lib::Larger(2.5f, 1));
    out.SetValue(2, static_cast<float>(Own::Use(5)));
    out.SetValue(3, static_cast<float>(std::min(7, 4)));
}
"""


def test_scalar_min_and_max_at_global_scope_yield_to_a_kernels_own(sim):
    """bisheng gives device code global scalar min/max (Catlass calls them unqualified); cpu-sim's
    rank below any other min that matches, so a kernel's own or std::min keeps its meaning."""
    exe = sim.build(MIN_MAX, args=3)
    run = sim.run(exe, 1, [np.zeros(8, np.float32), np.zeros(8, np.float32), np.zeros(8, np.float32)])
    assert run.returncode == 0, run.stderr
    assert run.outputs[2][:4].tolist() == [3.0, 2.5, 1003.0, 4.0]
