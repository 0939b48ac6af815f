"""The device-code allow-list on a compiled kernel object (bench_runner/device_code.py, issue #30)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench_runner import device_code, launcher
from bench_runner.ascend_sim import build
from bench_runner.toolchains import cpu_sim

needs_sim = pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim unavailable")

HEAD = '#include "kernel_operator.h"\n#include <algorithm>\n#include <cmath>\n#include <string>\n'


def _kernel_object(tmp_path: Path, body: str) -> tuple[Path, Path]:
    """``body`` compiled as the cpu-sim build compiles kernel.cpp (flags, then the rename); the
    object and the runtime object."""
    pch = build.ensure_pch()
    assert pch is not None
    runtime = Path(pch) / build.RUNTIME_OBJ
    (tmp_path / "kernel.cpp").write_text(HEAD + body)
    argv = [a for a in build.compile_command([Path("kernel.cpp")], Path("kernel.o"),
                                             extra_include_dirs=(launcher.HARNESS_DIR,))
            if not a.endswith(build.RUNTIME_OBJ)]
    argv[1:1] = ["-c", *device_code.KERNEL_COMPILE_FLAGS]
    subprocess.run(argv, cwd=tmp_path, check=True, capture_output=True)
    subprocess.run(device_code.rename_argv(Path("kernel.o"), runtime), cwd=tmp_path, check=True)
    return tmp_path / "kernel.o", runtime


ENTRY = 'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {{\n{}\n}}\n'


@needs_sim
@pytest.mark.parametrize(("body", "routine"), [
    # libstdc++ reaches wmemcpy for wchar_t: no poisoned name in the source
    ("    std::char_traits<wchar_t>::copy((wchar_t*)y, (const wchar_t*)x, 8);", "wmemcpy"),
    ("    *(float*)y = lgammaf(*(const float*)x);", "lgammaf"),
    ("    __mempcpy(y, x, 8);", "__mempcpy"),
    # a pointer to a libc routine in a table the kernel reads
    ("    static void* const table[] = {(void*)&lgammaf};\n    *(void**)y = table[0];", "lgammaf"),
])
def test_routines_off_the_list_are_refused_with_the_caller(tmp_path: Path, body: str, routine: str) -> None:
    obj, runtime = _kernel_object(tmp_path, ENTRY.format(body))
    source = HEAD + ENTRY.format(body)
    found = device_code.check_object(obj, runtime, source)
    assert [d.message.split(" calls ", 1)[1].split(",", 1)[0] for d in found] == [routine], found
    d = found[0]
    assert d.category.value == "device_code" and d.file == "kernel.cpp" and d.line, d
    assert d.message.startswith("k"), d.message  # the kernel function that calls it


@needs_sim
@pytest.mark.parametrize("body", [
    # charged: std::copy / std::fill_n become memmove / memset, renamed to the runtime's charged copies
    "    std::copy((const float*)x, (const float*)x + 64, (float*)y);",
    "    std::fill_n((unsigned char*)y, 256, 0);",
    "    *(float*)y = expf(*(const float*)x) + std::erf(*(const float*)x) + powf(2.0f, *(const float*)x);",
    # pure arithmetic and compiler support
    "    *(unsigned*)y = __builtin_popcount(*(const unsigned*)x);",
    "    *(__int128*)y = *(const __int128*)x / 7;",
    # the emulator's own code instantiates std::string and std::vector: not the kernel's calls
    "    AscendC::TPipe pipe; AscendC::printf(\"%d\\n\", 1);",
])
def test_allowed_calls_pass(tmp_path: Path, body: str) -> None:
    obj, runtime = _kernel_object(tmp_path, ENTRY.format(body))
    assert device_code.check_object(obj, runtime, HEAD + ENTRY.format(body)) == []


@needs_sim
@pytest.mark.parametrize(("defs", "symbol"), [
    # the emulator's GM registry lock: its calls would run this inside their API scope, uncharged
    ('extern "C" int pthread_rwlock_rdlock(pthread_rwlock_t*) noexcept { return 0; }', "pthread_rwlock_rdlock"),
    ('extern "C" int sched_yield() noexcept { return 0; }', "sched_yield"),
    ('extern "C" inline int pthread_mutex_unlock(pthread_mutex_t*) noexcept { return 0; }\n'
     'int (*keep)(pthread_mutex_t*) = pthread_mutex_unlock;', "pthread_mutex_unlock"),  # weak, still C linkage
    ("int daylight = 1;", "daylight"),  # the C library's data
])
def test_definitions_that_replace_a_library_routine_are_refused(tmp_path: Path, defs: str, symbol: str) -> None:
    """Issue #30: a kernel that defined a routine the emulator calls ran its own code inside the
    emulator's calls (interposition), where nothing is charged."""
    text = defs + "\n" + ENTRY.format("    *(int*)y = 1;")
    obj, runtime = _kernel_object(tmp_path, text)
    found = device_code.check_object(obj, runtime, HEAD + text)
    assert [d.message.split(" defines ", 1)[1].split(",", 1)[0] for d in found] == [symbol], found
    assert found[0].category.value == "device_code" and found[0].line == HEAD.count("\n") + 1, found[0]


@needs_sim
def test_own_definitions_pass(tmp_path: Path) -> None:
    """The kernel's own globals and functions, and library templates it instantiates, are not replacements."""
    text = ("int g_tiles = 4;\nstatic int helper(int x) { return x + g_tiles; }\n"
            "namespace kern { int scale(int x) { return 2 * x; } }\n" +
            ENTRY.format("    *(int*)y = helper(kern::scale(std::max(*(const int*)x, 0)));"))
    obj, runtime = _kernel_object(tmp_path, text)
    assert device_code.check_object(obj, runtime, HEAD + text) == []


@needs_sim
def test_charged_routines_are_renamed_in_the_object(tmp_path: Path) -> None:
    body = ("    std::copy((const float*)x, (const float*)x + 64, (float*)y);\n    *(float*)y = expf(*(float*)y);\n"
            "    printf(\"%d\\n\", *(const int*)x);")
    obj, runtime = _kernel_object(tmp_path, ENTRY.format(body))
    names = {s.name for s in device_code.elf_object.read(obj).symbols if not s.defined}
    assert {"ascend_sim_kernel_memmove", "ascend_sim_kernel_expf", "ascend_sim_kernel_printf"} <= names
    assert not {"memmove", "expf", "printf"} & names
    assert {"memcpy", "memmove", "memset", "expf", "erff", "sqrtf", "powf", "sincosf", "printf"} <= set(
        device_code.runtime_exports(runtime).renames)


@needs_sim
def test_without_instrumentation_nothing_is_checked(tmp_path: Path) -> None:
    """The header-only fallback build charges nothing and has no runtime object to list: not checked."""
    (tmp_path / "k.cpp").write_text('#include <strings.h>\nextern "C" void k(char* a, char* b) { bcopy(a, b, 8); }\n')
    subprocess.run(["g++", "-O2", "-c", "k.cpp", "-o", "k.o"], cwd=tmp_path, check=True)
    assert device_code.check_object(tmp_path / "k.o", None, "") == []


def test_an_unreadable_object_is_refused(tmp_path: Path) -> None:
    (tmp_path / "k.o").write_bytes(b"not an object")
    found = device_code.check_object(tmp_path / "k.o", None, "")
    assert len(found) == 1 and found[0].category.value == "device_code"


@pytest.mark.parametrize(("name", "ok"), [
    ("_Unwind_Resume", True), ("__divti3", True), ("__popcountdi2", True), ("__extendhfsf2", True),
    ("__floattisf", True), ("puts", True), ("printf", False),  # printf: renamed to the runtime's checked copy
    ("bcopy", False), ("memcpy", False), ("erff", False),
    ("__memcpy_chk", False), ("_ZSt4copyIPKfPfET0_T_S4_S3_", False),
])
def test_allowed_names(name: str, ok: bool) -> None:
    assert device_code.allowed(name, device_code.RuntimeExports(frozenset({"ascend_sim_kernel_memcpy"}), {})) is ok


@pytest.mark.parametrize(("mangled", "plain"), [
    ("bcopy", "bcopy"),
    ("_ZN9KernelAbs7ProcessEv", "KernelAbs::Process"),
    ("_ZN9KernelAbsC2Ev", "KernelAbs::KernelAbs"),
    ("_ZNSt11char_traitsIwE4copyEPwPKwm", "std::char_traits<…>::copy"),
    ("_ZN7AscendC3sim11load_tilingI13AbsTilingDataEET_PKvRKNS0_6SrcLocE", "AscendC::sim::load_tiling<…>"),
    ("abs_custom.cold", "abs_custom"),
])
def test_plain_names(mangled: str, plain: str) -> None:
    assert device_code.plain_name(mangled) == plain


def test_a_kernel_file_may_include_iostream_but_not_use_it() -> None:
    """Catlass-based answers include <iostream>: on the NPU nothing runs at load time, so the
    header's std::ios_base::Init object must not make the kernel load-time code here; writing to
    std::cout is still refused (the device-code poison names it)."""
    from bench_runner import tasks
    from bench_runner.evaluate import evaluate

    task = tasks.get_task("add_fp16_static")
    expert = task.expert_kernel.read_text()
    including = "#include <iostream>\n" + expert
    assert evaluate(task, including, use_cache=False, baseline=False).verdict == "passed"
    printing = including + "void akgen_probe() { std::cout << 1; }\n"  # every function of the file is kernel code
    result = evaluate(task, printing, use_cache=False, baseline=False)
    assert result.verdict == "compile_error" and "cout" in result.reason, result.reason  # the device-code poison
