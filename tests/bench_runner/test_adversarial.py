"""Issue #16: kernels that game or forge the modelled speedup must never rank.

Each variant in ``adversarial/`` is correct on the CPU but slow (or impossible) on the NPU, or
tries to forge its result. A variant is "not ranked" when it fails, models slower than the
expert, or carries a flag that makes the result ``suspicious`` (contracts.UNRANKED_FLAGS).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bench_runner import report_guard
from bench_runner.contracts import EvaluationResult, Verdict
from bench_runner.evaluate import evaluate
from bench_runner.tasks import Task, get_task
from bench_runner.taxonomy import Category
from bench_runner.toolchains import cpu_sim

HERE = Path(__file__).parent / "adversarial"
needs_sim = pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim unavailable")


def _without_large_cases(slug: str) -> Task:
    """The task without its large cases (those that raise their own run limit): a scalar loop
    over a 4096^3 GEMM runs past any limit (a timeout, not ranked either), and what these tests
    check is how the small cases model. Another version, so no cached baseline is shared."""
    task = get_task(slug)
    small = tuple(c for c in task.cases if c.limits.get("run_wall_s") == task.limits.get("run_wall_s"))
    return dataclasses.replace(task, cases=small, version=f"{task.version}-small") if small != task.cases else task


def _ranked(r: EvaluationResult) -> bool:
    return r.passed and not r.suspicious and r.speedup is not None and r.speedup >= 1.0


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("adv-cache")


# (task, file, expected outcome): "slow" = passes but models slower than the expert;
# "device_code" = compile error of that category at a kernel line; "fails" = not passed.
VARIANTS = [
    ("abs_fp16", "abs_raw_gm_loop.cpp", "slow"),
    ("abs_fp16", "abs_ub_scalar.cpp", "slow"),
    ("abs_fp16", "abs_busy_loop.cpp", "slow"),
    ("abs_fp16", "abs_memcpy.cpp", "device_code"),
    ("abs_fp16", "abs_std_vector.cpp", "device_code"),
    ("abs_fp16", "abs_write_result_fd.cpp", "fails"),
    ("asum_fp32", "asum_raw_loop.cpp", "slow"),
    ("matmul_fp16", "matmul_raw_loop.cpp", "slow"),
    # issue #30: what a kernel may call outside the AscendC API is an allow-list (bench_runner/device_code.py)
    ("abs_fp16", "abs_avx2_maskload.cpp", "device_code"),  # 1.21x at 91de42e
    ("abs_fp16", "abs_bcopy.cpp", "device_code"),  # 1.64x at 91de42e
    ("abs_fp16", "abs_builtin_memcpy.cpp", "device_code"),
    ("abs_fp16", "abs_pragma_target.cpp", "device_code"),
    ("gelu_erf_fp32", "gelu_erff_stack.cpp", "slow"),  # 1.40x at 91de42e: erff and std::copy are charged now
    ("abs_fp16", "abs_std_copy.cpp", "slow"),  # 1.63x at 91de42e: the memmove is charged now
    ("abs_fp16", "abs_vector_type.cpp", "slow"),  # vector-typed loads and stores are instrumented like any
]


@needs_sim
@pytest.mark.parametrize(("task", "name", "expect"), VARIANTS, ids=[v[1] for v in VARIANTS])
def test_variant_is_not_ranked(cache: Path, task: str, name: str, expect: str) -> None:
    r = evaluate(_without_large_cases(task), (HERE / name).read_text(), cache_dir=cache)
    assert not _ranked(r), r.to_dict()
    if expect == "slow":
        assert r.passed, r.reason
        assert r.speedup is not None and r.speedup < 1.0, r.speedup
    elif expect == "device_code":
        assert r.verdict is Verdict.COMPILE_ERROR
        d = r.diagnostics[0]
        assert d.category is Category.DEVICE_CODE and d.file == "kernel.cpp" and d.line, d
    else:
        assert not r.passed


@needs_sim
def test_raw_scalar_loop_charged_like_getvalue(cache: Path) -> None:
    """The same scalar loop costs the same whether it uses raw pointers or GetValue/SetValue."""
    raw = (HERE / "abs_raw_gm_loop.cpp").read_text()
    api = raw.replace("const uint16_t* src = reinterpret_cast<const uint16_t*>(x) + start;",
                      "AscendC::GlobalTensor<uint16_t> s; s.SetGlobalBuffer((__gm__ uint16_t*)x + start, n);") \
             .replace("uint16_t* dst = reinterpret_cast<uint16_t*>(y) + start;",
                      "AscendC::GlobalTensor<uint16_t> d; d.SetGlobalBuffer((__gm__ uint16_t*)y + start, n);") \
             .replace("dst[i] = static_cast<uint16_t>(src[i] & 0x7FFFu);",
                      "d.SetValue(i, static_cast<uint16_t>(s.GetValue(i) & 0x7FFFu));")
    assert api != raw
    a = evaluate("abs_fp16", raw, cache_dir=cache)
    b = evaluate("abs_fp16", api, cache_dir=cache)
    assert a.passed and b.passed
    ca = {p["name"]: p["cycles"] for p in a.perf["per_case"]}
    cb = {p["name"]: p["cycles"] for p in b.perf["per_case"]}
    big = max(ca, key=ca.get)
    assert 0.7 < ca[big] / cb[big] < 1.4, (ca, cb)


def test_unmodelled_write_flag_makes_result_suspicious() -> None:
    r = EvaluationResult(verdict=Verdict.PASSED, speedup=1.5, flags=("unmodelled_write",))
    assert r.suspicious and r.to_dict()["suspicious"]
    assert not EvaluationResult(verdict=Verdict.PASSED, speedup=1.5).suspicious


def test_deeply_nested_report_is_unreadable_not_a_crash() -> None:
    deep = b"[" * 100000 + b"]" * 100000
    with pytest.raises(report_guard.ReportError):
        report_guard.load(b'{"a": ' + deep + b"}")
    with pytest.raises(report_guard.ReportError):
        report_guard.load(b"{" + b'"a": {' * 40 + b"}" * 41)


def test_oversized_or_garbage_report_is_unreadable() -> None:
    with pytest.raises(report_guard.ReportError):
        report_guard.load(b" " * (report_guard.MAX_REPORT_BYTES + 1))
    with pytest.raises(report_guard.ReportError):
        report_guard.load(b"not json")
    with pytest.raises(report_guard.ReportError):
        report_guard.load(b"[1, 2]")


def test_report_is_rebuilt_from_known_fields_with_caps() -> None:
    forged = {"total_cycles": 5, "est_us": "fast", "evil": "x" * 10**6,
              "findings": [{"severity": "warning", "message": "m" * 10**4, "line": True}] * 300,
              "timeline": [{"core": 0, "op": "o" * 500, "start": -1}] * 5000}
    out = report_guard.load(json.dumps(forged).encode())
    assert out is not None and "evil" not in out and out["est_us"] is None
    assert len(out["findings"]) == report_guard.MAX_FINDINGS
    assert len(out["findings"][0]["message"]) == report_guard.MAX_TEXT and out["findings"][0]["line"] is None
    assert len(out["timeline"]) == report_guard.MAX_TIMELINE and out["timeline_truncated"]
    assert len(json.dumps(out)) < 2 * 10**6


ESCAPES = {
    "hook_override": 'extern "C" void __sanitizer_cov_trace_pc() {}\n',
    "no_sanitize": "__attribute__((no_sanitize_address, no_sanitize_coverage)) static void f() {}\n",
    "pragma_optimize": '#pragma GCC optimize("O0")\n',
    "pragma_operator": '_Pragma("GCC push_options")\n',
    "emulator_internals": "static void h() { AscendC::sim::tl_core = nullptr; }\n",
}


@needs_sim
@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_escapes_from_the_cost_model_are_refused(cache: Path, name: str) -> None:
    """Replacing the call-backs, switching instrumentation off or naming emulator state: refused."""
    src = (HERE / "abs_raw_gm_loop.cpp").read_text().replace('#include "abs_tiling.h"\n',
                                                             '#include "abs_tiling.h"\n' + ESCAPES[name])
    r = evaluate("abs_fp16", src, cache_dir=cache)
    assert r.verdict is Verdict.SANDBOX_VIOLATION, r.to_dict()["diagnostics"][:2]
    assert not _ranked(r)


#: Ways to run kernel-side code before the launch, where no core is running and nothing is charged.
LOAD_TIME = {
    "constructor": "struct Warm { unsigned v = 0; Warm() { for (unsigned i = 0; i < 100000000u; ++i) v += i; } };\n"
                   "static Warm warm;\n",
    "dynamic_init": "static unsigned Spin() { unsigned v = 0; for (unsigned i = 0; i < 1000u; ++i) v += i * i; "
                    "return v; }\nstatic unsigned table_seed = Spin();\n",
    "destructor": "struct Late { ~Late() {} int k = 1; };\nLate late;\n",
}


@needs_sim
@pytest.mark.parametrize("name", sorted(LOAD_TIME))
def test_code_that_runs_before_the_launch_is_device_code_error(cache: Path, name: str) -> None:
    """A namespace-scope object with a constructor or destructor, or a non-constant initialiser,
    runs on the host before any core starts (free, unmodelled work): a device-code compile error."""
    src = (HERE / "abs_busy_loop.cpp").read_text().replace("    volatile uint32_t spin = 0;\n", "").replace(
        "    for (uint32_t i = 0; i < 2000000u; ++i) spin = spin + i;\n", "").replace(
        "using namespace AscendC;\n", "using namespace AscendC;\n" + LOAD_TIME[name])
    r = evaluate("abs_fp16", src, cache_dir=cache)
    assert r.verdict is Verdict.COMPILE_ERROR, r.reason
    d = r.diagnostics[0]
    assert d.category is Category.DEVICE_CODE and d.file == "kernel.cpp" and "before the kernel launch" in d.message


@needs_sim
def test_constant_initialised_globals_are_fine(cache: Path) -> None:
    src = (HERE / "abs_busy_loop.cpp").read_text().replace("    volatile uint32_t spin = 0;\n", "").replace(
        "    for (uint32_t i = 0; i < 2000000u; ++i) spin = spin + i;\n", "").replace(
        "using namespace AscendC;\n", "using namespace AscendC;\nconstexpr uint32_t kTable[4] = {1, 2, 3, 4};\n"
        "static const float kScale = 2.0f;\nstruct Plain { int a; int b; };\nstatic Plain plain = {1, 2};\n")
    r = evaluate("abs_fp16", src, cache_dir=cache)
    assert r.verdict is Verdict.PASSED, r.reason


def test_elf_section_names_of_a_non_elf_file_are_empty(tmp_path: Path) -> None:
    (tmp_path / "x.o").write_bytes(b"not an object")
    assert cpu_sim.elf_section_names(tmp_path / "x.o") == set()


#: Other C library routines in place of abs_bcopy.cpp's bcopy: the poisoned names (a compile error
#: at the kernel's line) and routes that name no poisoned identifier, which the object check
#: refuses by what the kernel's code calls (device_code.check_object).
LIBC_COPIES = {
    "mempcpy": ("mempcpy(dst, src, bytes);", "mempcpy"),
    "memccpy": ("for (char *d = static_cast<char*>(dst), *e; bytes; bytes -= e - d, src = static_cast<const char*>"
                "(src) + (e - d), d = e) if (!(e = static_cast<char*>(memccpy(d, src, 0, bytes)))) break;", "memccpy"),
    "wmemcpy": ("wmemcpy(static_cast<wchar_t*>(dst), static_cast<const wchar_t*>(src), bytes / 4);", "wmemcpy"),
    "swab": ("char tmp[256]; for (uint32_t o = 0; o < bytes; o += 256) { swab(static_cast<const char*>(src) + o, "
             "tmp, bytes - o < 256 ? bytes - o : 256); swab(tmp, static_cast<char*>(dst) + o, "
             "bytes - o < 256 ? bytes - o : 256); }", "swab"),
    "bzero": ("bzero(dst, bytes); static_cast<char*>(dst)[0] = *static_cast<const char*>(src);", "bzero"),
    "explicit_bzero": ("explicit_bzero(dst, bytes);", "explicit_bzero"),
    "char_traits": ("std::char_traits<wchar_t>::copy(static_cast<wchar_t*>(dst), static_cast<const wchar_t*>(src), "
                    "bytes / 4);", "wmemcpy"),
    "glibc_internal": ("__mempcpy(dst, src, bytes);", "__mempcpy"),
    "unlisted_libm": ("static_cast<float*>(dst)[0] = lgammaf(static_cast<const float*>(src)[0]);", "lgammaf"),
}


@needs_sim
@pytest.mark.parametrize("name", sorted(LIBC_COPIES))
def test_c_library_routines_are_device_code_errors(cache: Path, name: str) -> None:
    """A libc or libm routine off the allow-list, however it is reached: a compile error naming it,
    at the kernel's line."""
    code, routine = LIBC_COPIES[name]
    base = (HERE / "abs_bcopy.cpp").read_text()
    src = base.replace("    bcopy(src, dst, bytes);", "    " + code)
    assert src != base
    r = evaluate(_without_large_cases("abs_fp16"), src, cache_dir=cache)
    assert r.verdict is Verdict.COMPILE_ERROR, r.to_dict()["diagnostics"][:2]
    d = r.diagnostics[0]
    assert d.category is Category.DEVICE_CODE and d.file == "kernel.cpp", d
    assert routine in d.message and d.line, d
    if routine in code:  # named in the source: the compiler's or the object check's line is that line
        assert d.line == src.splitlines().index("    " + code) + 1, d


#: A loop of 64 calls on every core, after the expert's work: with a charged routine and without.
_MATH_LOOP = "    volatile float acc = 1.0f;\n    for (uint32_t i = 0; i < 64u; ++i) acc = acc + {call};\n"


@needs_sim
def test_allowed_scalar_math_is_charged_on_the_scalar_pipe(cache: Path) -> None:
    """expf is on the allow-list and costs kMathExpLogCycles (20, soc.h) per call on the S pipe: the
    same loop without the call models exactly 64 x 20 cycles less scalar work per core."""
    base = (HERE / "abs_busy_loop.cpp").read_text().replace("    volatile uint32_t spin = 0;\n", "")
    plain, charged = (base.replace("    for (uint32_t i = 0; i < 2000000u; ++i) spin = spin + i;\n",
                                   _MATH_LOOP.format(call=call))
                      for call in ("static_cast<float>(i) * 0.5f", "expf(static_cast<float>(i) * 0.5f)"))
    a = evaluate("abs_fp16", plain, cache_dir=cache, baseline=False)
    b = evaluate("abs_fp16", charged, cache_dir=cache, baseline=False)
    assert a.passed and b.passed, (a.reason, b.reason)
    sa = {p["name"]: p["pipes"]["S"] for p in a.perf["per_case"]}
    sb = {p["name"]: p["pipes"]["S"] for p in b.perf["per_case"]}
    assert all(sb[k] - sa[k] == 64 * 20 for k in sa), (sa, sb)
