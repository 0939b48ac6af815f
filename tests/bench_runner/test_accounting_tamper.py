"""Issue #30: a kernel's modelled time depends on its AscendC work alone.

The emulator's clocks, counters and buffer records live in the same process as the kernel. An
adversarial kernel (the expert's work plus a few lines of pointer arithmetic) used to reach them
through a LocalTensor's internals and divide its clocks: 5x "faster" with no flag. Every variant
here does the expert's work and then tampers; each must fail the run (a stray store, a forged
buffer), never change the modelled time of a passing result.

The attacker knows the emulator's layout (its headers are public): a probe program compiled
against the same headers prints the offsets the attacks use.
"""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from bench_runner.ascend_sim import build
from bench_runner.contracts import EvaluationResult, Verdict
from bench_runner.errors import InfrastructureError
from bench_runner.evaluate import evaluate
from bench_runner.tasks import Task, get_task
from bench_runner.toolchains import cpu_sim

needs_sim = pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim unavailable")

PROBE = r"""
#include <cstddef>
#include <cstdio>
#include "kernel_operator.h"
using namespace AscendC::sim;
int main() {
    std::printf("OFF_STATIC=%zu OFF_PIPE_FREE=%zu OFF_S_NOW=%zu OFF_IN_API=%zu OFF_WRITE_END=%zu OFF_READ_END=%zu "
                "OFF_ENQ=%zu SIZEOF_BLOCK=%zu\n",
                offsetof(CoreCtx, static_block), offsetof(CoreCtx, pipe_free), offsetof(CoreCtx, s_now),
                offsetof(CoreCtx, in_api), offsetof(BlockInfo, write_end), offsetof(BlockInfo, read_end),
                offsetof(BlockInfo, enq_time), sizeof(BlockInfo));
    return 0;
}
"""

# Appended to the expert's Process(): runs after all the real work on each core.
TAMPER: dict[str, str] = {
    # The attack: a static LocalTensor's buffer record sits inside the per-core record;
    # divide every pipe's clock (and the scalar unit's) by 5.
    "divide_clocks": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        unsigned char* core = reinterpret_cast<unsigned char*>(blk - OFF_STATIC);
        uint64_t* clocks = reinterpret_cast<uint64_t*>(core + OFF_PIPE_FREE);
        for (int p = 0; p < 7; ++p) clocks[p] /= 5;
        *reinterpret_cast<uint64_t*>(core + OFF_S_NOW) /= 5;
""",
    # Turn the scalar-work hooks off (they charge nothing while an API scope is open).
    "open_api_scope": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        *reinterpret_cast<uint32_t*>(blk - OFF_STATIC + OFF_IN_API) += 1;
""",
    # Clear the dependency timestamps of a queue buffer so later copies overlap for free.
    "reset_buffer_clock": r"""
        LocalTensor<half> t = yQue_.AllocTensor<half>();
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&t);
        *reinterpret_cast<uint64_t*>(blk + OFF_WRITE_END) = 0;
        *reinterpret_cast<uint64_t*>(blk + OFF_READ_END) = 0;
        yQue_.FreeTensor(t);
""",
    # A forged buffer record on the kernel's own stack (a copy of a real one with its clocks
    # cleared), swapped into a LocalTensor: the emulator must not take its timestamps.
    "forged_block": r"""
        LocalTensor<half> t = yQue_.AllocTensor<half>();
        alignas(16) unsigned char fake[SIZEOF_BLOCK];
        const unsigned char* real = *reinterpret_cast<unsigned char* const*>(&t);
        for (unsigned i = 0; i < SIZEOF_BLOCK; ++i) fake[i] = real[i];
        *reinterpret_cast<uint64_t*>(fake + OFF_WRITE_END) = 0;
        *reinterpret_cast<uint64_t*>(fake + OFF_READ_END) = 0;
        *reinterpret_cast<unsigned char**>(&t) = fake;
        Duplicate(t, half(0), 16);
        yQue_.FreeTensor(t);
""",
    # An atomic read-modify-write on the scalar clock (std::atomic comes with the emulator's headers).
    "atomic_clock": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        reinterpret_cast<std::atomic<uint64_t>*>(blk - OFF_STATIC + OFF_S_NOW)->fetch_sub(300);
        __atomic_fetch_sub(reinterpret_cast<uint64_t*>(blk - OFF_STATIC + OFF_PIPE_FREE), 100, __ATOMIC_RELAXED);
""",
    # Free the per-core record, hoping a later allocation reuses its memory (it stays allocated).
    "free_the_record": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        delete reinterpret_cast<char*>(blk - OFF_STATIC);
""",
    # Emulator code writing through an object the kernel overlays on the per-core record: a
    # LocalTensor's setter (its size field lands on the scalar clock) and an output reference.
    "setter_on_overlay": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        reinterpret_cast<LocalTensor<half>*>(blk - OFF_STATIC + OFF_S_NOW - 16)->SetSize(0);
""",
    # A GlobalTensor's setter on an overlay: its size field lands on the scalar clock.
    "global_tensor_on_overlay": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        reinterpret_cast<GlobalTensor<half>*>(blk - OFF_STATIC + OFF_S_NOW - 8)->SetGlobalBuffer(nullptr, 0);
""",
    # The Matmul API on an overlay (the class comes with lib/matmul_intf.h): Init copies the
    # kernel's tiling (all ones, so that it validates) into its first member, over the clocks.
    "matmul_on_overlay": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        using A = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
        using C = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
        TCubeTiling ones;
        int32_t* field = reinterpret_cast<int32_t*>(&ones);
        for (unsigned i = 0; i < sizeof ones / sizeof(int32_t); ++i) field[i] = 1;
        reinterpret_cast<matmul::Matmul<A, A, C>*>(blk - OFF_STATIC + OFF_PIPE_FREE)->Init(&ones);
""",
    # printf's %n stores the count of characters printed through a pointer argument.
    "printf_percent_n": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        AscendC::printf("%n", reinterpret_cast<int*>(blk - OFF_STATIC + OFF_S_NOW));
""",
    "libc_printf_percent_n": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        ::printf("%n", reinterpret_cast<int*>(blk - OFF_STATIC + OFF_S_NOW));
""",
    # A tensor list's shape written through a pointer the kernel set (TensorDesc::SetShapeAddr on
    # an overlay).
    "tensor_desc_on_overlay": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        reinterpret_cast<TensorDesc<half>*>(blk - OFF_STATIC + OFF_S_NOW - 8)->SetShapeAddr(nullptr);
""",
    "queue_on_overlay": r"""
        LocalTensor<half> probe(TPosition::VECCALC, 0, 16);
        const uintptr_t blk = *reinterpret_cast<const uintptr_t*>(&probe);
        TQue<QuePosition::VECIN, 1>& q = *reinterpret_cast<TQue<QuePosition::VECIN, 1>*>(blk - OFF_STATIC);
        LocalTensor<half> t = q.AllocTensor<half>();
        q.FreeTensor(t);
""",
    # Past the kernel's own frames: the launcher's frames and the thread's TLS (tl_core) are above.
    # A read-modify-write is checked by the compiler at its read only.
    "above_own_stack": r"""
        volatile uint64_t here = 0;
        volatile uint64_t* up = &here;
        for (int i = 0; i < 512; ++i) up[i] = up[i];
""",
    # Into the bytes after an output buffer's logical end (allocator padding, then the heap).
    "past_gm_buffer": r"""
        if (length_ > 0) {
            __gm__ half* end = (__gm__ half*)yGm_.GetPhyAddr() + length_;
            for (int i = 0; i < 64; ++i) end[i] = half(0);
        }
""",
}


#: Attacks the emulator makes ineffective rather than fatal: the run may pass, never faster.
HARMLESS = {"free_the_record"}


def _small(task: Task) -> Task:
    cases = tuple(c for c in task.cases if c.name in ("n1003_tail", "n65536"))
    return dataclasses.replace(task, cases=cases, version=f"{task.version}-tamper")


@pytest.fixture(scope="module")
def offsets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, int]:
    d = tmp_path_factory.mktemp("probe")
    src = d / "probe.cpp"
    src.write_text(PROBE)
    argv = [build.CXX, *build.BASE_FLAGS, f"-I{build.include_dir()}", str(src), "-o", str(d / "probe"),
            *build.link_flags()]
    subprocess.run(argv, check=True, capture_output=True, timeout=300)
    out = subprocess.run([str(d / "probe")], check=True, capture_output=True, text=True).stdout
    return {k: int(v) for k, v in (kv.split("=") for kv in out.split())}


def _attack(expert: str, name: str, offsets: dict[str, int]) -> str:
    consts = "".join(f"constexpr uintptr_t {k} = {v};\n" for k, v in offsets.items())
    marker = "    __aicore__ inline void Process() {\n"
    assert marker in expert
    body = TAMPER[name]
    # Process() does the expert's work (renamed ProcessReal), then tampers.
    tampered = expert.replace(marker, marker + "        ProcessReal();\n        Tamper();\n"
                              "    }\n    __aicore__ inline void ProcessReal() {\n", 1)
    tampered = tampered.replace("  private:\n", "  private:\n    __aicore__ inline void Tamper() {\n" + body +
                                "    }\n", 1)
    head = '#include "lib/matmul_intf.h"\n' if "matmul::" in body else ""
    return tampered.replace("using namespace AscendC;\n", "using namespace AscendC;\n" + head + consts, 1)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> EvaluationResult:
    task = _small(get_task("abs_fp16"))
    return evaluate(task, _expert_text(), cache_dir=tmp_path_factory.mktemp("tamper-cache"))


def _expert_text() -> str:
    return get_task("abs_fp16").expert_kernel.read_text()


@needs_sim
@pytest.mark.parametrize("name", sorted(TAMPER))
def test_tampering_never_changes_modelled_time(name: str, offsets: dict[str, int], baseline: EvaluationResult,
                                               tmp_path: Path) -> None:
    """Each attack fails the run with a finding that names it; none passes with other cycles."""
    assert baseline.passed, baseline.reason
    src = _attack(_expert_text(), name, offsets)
    r = evaluate(_small(get_task("abs_fp16")), src, cache_dir=tmp_path)
    if r.passed:
        cycles = [(c.perf or {}).get("cycles") or 0 for c in r.cases]
        honest = [(c.perf or {}).get("cycles") or 0 for c in baseline.cases]
        assert all(a >= b for a, b in zip(cycles, honest, strict=True)), (name, "models faster", cycles, honest)
        if name in HARMLESS:
            return
        pytest.fail(f"{name}: the tampering went unnoticed")
    assert r.verdict is Verdict.RUNTIME_ERROR, (name, r.verdict, r.reason)
    codes = {d.code for d in r.diagnostics}
    assert codes & {"STRAY_ACCESS", "BAD_PARAM"}, (name, [d.to_dict() for d in r.diagnostics])


@needs_sim
def test_without_the_instrumented_runtime_nothing_is_judged(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel compiled without the prebuilt runtime runs uninstrumented: its scalar work is free
    and its stores unguarded. When the runtime cannot be built (here: a cache root that is a file),
    the toolchain refuses instead of falling back to such a build."""
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv("ASCEND_SIM_CACHE_DIR", str(blocked))
    with pytest.raises(InfrastructureError, match="instrumented runtime"):
        evaluate(_small(get_task("abs_fp16")), _expert_text(), cache_dir=tmp_path / "results")


#: Library templates the emulator also calls during a launch (growth of its vectors, strings, maps),
#: instantiated by an otherwise unused function of the driver.
_DRIVER_EXTRA = r"""
#include <map>
#include <string>
#include <vector>
__attribute__((used)) static void akgen_test_driver_extra(int n) {
    std::vector<unsigned long> a; std::vector<unsigned char*> b; std::vector<std::string> c;
    std::map<std::string, int> m;
    for (int i = 0; i < n; ++i) { a.push_back(i); b.push_back(nullptr); c.push_back(std::to_string(i)); m[c.back()] = i; }
}
"""


@needs_sim
def test_the_drivers_code_does_not_move_a_kernels_cycles(monkeypatch: pytest.MonkeyPatch, baseline: EvaluationResult,
                                                           tmp_path: Path) -> None:
    """A kernel's modelled time depends on its own work alone: a driver that instantiates more
    library templates (as a harness change did: +4 cycles on every expert) judges the same kernel
    in the same cycles. The driver's objects are compiled without the call-backs
    (build.UNINSTRUMENTED_FLAGS), so their copies of those templates charge nothing."""
    from bench_runner import launcher

    plain = launcher.main_cpp
    monkeypatch.setattr(launcher, "main_cpp", lambda task: plain(task) + _DRIVER_EXTRA)
    r = evaluate(_small(get_task("abs_fp16")), _expert_text(), cache_dir=tmp_path)
    assert r.passed, r.reason
    assert [(c.perf or {}).get("cycles") for c in r.cases] == [(c.perf or {}).get("cycles") for c in baseline.cases]


# An explicit specialisation of a library routine the emulator's runtime also instantiates (it
# unlocks its barrier mutex with it). Linked as one program, the kernel's strong definition used to
# replace the runtime's copy, so the emulator would run the kernel's code inside its own calls,
# where nothing is charged or guarded.
_SPECIALISATION = r"""
static int g_unlocks;
template<> void std::unique_lock<std::mutex>::unlock()
{
    g_unlocks++;
    _M_device->unlock();
    _M_owns = false;
}
"""


@needs_sim
def test_a_kernels_copy_of_a_runtime_function_stays_its_own(baseline: EvaluationResult, tmp_path: Path) -> None:
    """The program keeps the runtime's copy for the runtime (cpu_sim._keep_own_copies renames the
    kernel's), and the kernel is judged in the expert's cycles."""
    keep = tmp_path / "keep"
    r = evaluate(_small(get_task("abs_fp16")), _expert_text() + _SPECIALISATION, cache_dir=tmp_path / "cache",
                 keep_dir=keep)
    assert r.passed, r.reason
    assert [(c.perf or {}).get("cycles") for c in r.cases] == [(c.perf or {}).get("cycles") for c in baseline.cases]
    symbol = "_ZNSt11unique_lockISt5mutexE6unlockEv"
    listed = {parts[0]: parts[1] for parts in (line.split() for line in subprocess.run(
        ["nm", "-P", str(keep / "box" / "prog")], capture_output=True, text=True, check=True).stdout.splitlines())}
    assert listed[symbol] == "W", "the kernel's definition replaced the runtime's"
    assert listed[symbol + cpu_sim.OWN_COPY_SUFFIX] == "T"
