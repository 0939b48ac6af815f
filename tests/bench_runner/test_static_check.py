"""Static refusal of OS access, emulator internals and host paths, with exact lines."""

from __future__ import annotations

import pytest

from bench_runner import static_check
from bench_runner.taxonomy import Category

CLEAN = """\
#include "kernel_operator.h"
#include <cstdint>
// calls to fopen( or system( in comments are fine
constexpr const char* kName = "socket(";
extern "C" __global__ __aicore__ void k(GM_ADDR x) { AscendC::TPipe pipe; obj.open(3); my_open(1); }
"""


def test_clean_kernel_passes() -> None:
    assert static_check.check(CLEAN, "kernel.cpp") == []


@pytest.mark.parametrize(("line", "needle"), [
    ('FILE* f = fopen("/etc/passwd", "r");', "fopen"),
    ("int s = socket(2, 1, 0);", "socket"),
    ("std::thread t([]{});", "std::thread"),
    ("system(\"id\");", "system"),
    ("::open(\"x\", 0);", "open"),
    ('const char* e = getenv("HOME");', "getenv"),
    ("atexit(+[]{});", "atexit"),
    ("AscendC::sim::rt();", "emulator"),
    ("sim::tl_core->s_now = 0;", "emulator"),  # after `using namespace AscendC`
    ("namespace s = sim;", "emulator"),
    ('asm("nop");', "assembly"),
    ("__attribute__((constructor)) void early() {}", "constructor"),
    ('#include "/etc/passwd"', "/etc/passwd"),
    ('#include "../../secret.h"', "../../secret.h"),
    ("#include <sys/socket.h>", "sys/socket.h"),
    ("#include <fstream>", "fstream"),
])
def test_forbidden_construct_is_located(line: str, needle: str) -> None:
    src = CLEAN + line + "\n"
    found = static_check.check(src, "kernel.cpp")
    assert found, line
    d = found[0]
    assert d.category is Category.SANDBOX_VIOLATION and d.file == "kernel.cpp"
    assert d.line == CLEAN.count("\n") + 1
    assert needle in d.message


@pytest.mark.parametrize(("line", "needle"), [
    ("#include <immintrin.h>", "immintrin.h"),
    ('#include "x86intrin.h"', "x86intrin.h"),
    ("#include <avx2intrin.h>", "avx2intrin.h"),
    ("#include <cpuid.h>", "cpuid.h"),
    ("auto v = _mm_loadu_si128(p);", "_mm_loadu_si128"),
    ("_mm256_maskstore_epi32(d, m, v);", "_mm256_maskstore_epi32"),
    ("unsigned long long t = __rdtsc();", "__rdtsc"),
    ('__attribute__((target("avx2"))) void f() {}', "target"),
    ('__attribute__((always_inline, __target__("sse4.2"))) void f() {}', "__target__"),
    ('[[gnu::target("avx512f")]] void f() {}', "target"),
    ('__attribute__((target_clones("avx2", "default"))) void f() {}', "target_clones"),
    ('#pragma GCC target("avx2")', "GCC target"),
    ("__builtin_memcpy(a, b, 4);", "__builtin_memcpy"),
    ("__builtin_ia32_maskmovdqu(a, b, c);", "__builtin_ia32_maskmovdqu"),
    ("void* p = __builtin_alloca(64);", "__builtin_alloca"),
    # objects at an address the kernel names: an emulator class's constructor or destructor
    # would write wherever it points (issue #30, objects overlaid on the emulator's records)
    ("new (reinterpret_cast<void*>(p)) AscendC::DataCopyParams(1, 2, 0, 0);", "new"),
    ("auto* q = ::new AscendC::TPipe;", "new"),
    ("reinterpret_cast<AscendC::TPipe*>(p)->~TPipe();", "->~TPipe"),
    ("pipe.AscendC::TPipe::~TPipe();", ".AscendC::TPipe::~TPipe"),
    ("std::construct_at(reinterpret_cast<AscendC::DataCopyParams*>(p), 1, 2, 0, 0);", "construct_at"),
    ("std::destroy_at(q);", "destroy_at"),
    ("std::uninitialized_fill_n(q, 1, v);", "uninitialized_fill_n"),
    ("std::allocator_traits<A>::construct(a, q);", "allocator_traits"),
    ("std::allocator<AscendC::TPipe>().construct(q);", "std::allocator"),
    ("alloc.destroy(q);", ".destroy"),
])
def test_device_code_rules_are_located(line: str, needle: str) -> None:
    """x86 intrinsics, code for another instruction set and builtins that reach memory: device-code
    findings at the line (the cpu-sim build turns them into a compile error), not sandbox violations."""
    src = CLEAN + line + "\n"
    assert static_check.check(src, "kernel.cpp") == []
    found = static_check.device_code_findings(src, "kernel.cpp")
    assert found, line
    d = found[0]
    assert d.category is Category.DEVICE_CODE and d.file == "kernel.cpp" and d.line == CLEAN.count("\n") + 1
    assert needle in d.message


@pytest.mark.parametrize("line", [
    "int x = __builtin_clz(7u) + __builtin_popcount(3u) + __builtin_expect(x, 0);",
    "bool b = __builtin_isnan(1.0f);",
    "int target = 3; retarget(target);",  # a variable named target is not the attribute
    '#include "my_tiling.h"',
    "typedef float v8 __attribute__((vector_size(32)));",  # vector types: accesses are instrumented
    "int renewed = 1; int newSize = renewed;",  # names that merely contain "new"
    "KernelAdd::~KernelAdd() {}",  # a destructor's definition is not a call
    "AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;",
    "AscendC::LocalMemAllocator<AscendC::Hardware::UB> allocator; int construct = 0, destroy = construct;",
    "op.Destroy(); void destroy(int n);",
])
def test_device_code_rules_leave_ordinary_code_alone(line: str) -> None:
    assert static_check.device_code_findings(CLEAN + line + "\n", "kernel.cpp") == []


def test_block_comments_keep_line_numbers() -> None:
    src = "/* a\n b\n c */\nvoid f() { system(\"x\"); }\n"
    assert static_check.check(src, "host.cpp")[0].line == 4


_PASTE = """\
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
"""


@pytest.mark.parametrize(("body", "needle"), [
    ('void f() { CAT(as, m)("nop"); }', "assembly"),
    ("void f() { CAT(std::thr, ead) t; }", "std::thread"),
    ('void f() { CAT(_Pra, gma)("GCC optimize(\\"O0\\")"); }', "GCC optimize"),
    ("void f() { CAT(AscendC::si, m)::tl_core = nullptr; }", "emulator"),
])
def test_forbidden_construct_through_the_preprocessor(body: str, needle: str) -> None:
    from bench_runner.evaluate import evaluate

    src = '#include "kernel_operator.h"\n' + _PASTE + body + "\n"
    assert static_check.check(src, "kernel.cpp") == []  # the text alone hides it
    result = evaluate("add_fp16_static", src, use_cache=False, baseline=False)
    assert result.verdict.value == "sandbox_violation", result.reason
    d = result.diagnostics[0]
    assert d.file == "kernel.cpp" and d.line == src.count("\n") and needle in d.message


@pytest.mark.parametrize(("body", "needle"), [
    ("void f(void* a) { CAT(__buil, tin_memcpy)(a, a, 4); }", "__builtin_memcpy"),
    ("void f() { auto z = CAT(_m, m_setzero_si128)(); (void)z; }", "_mm_setzero_si128"),
    ("#define HDR <immintrin.h>\n#include HDR\n#include \"kernel_operator.h\"\nvoid f() {}", "immintrin.h"),
])
def test_device_code_through_the_preprocessor(body: str, needle: str) -> None:
    """Device-code names built by pasting, or an intrinsic header included through a macro (before
    kernel_operator.h: after it, the header's own use of poisoned names already fails), are refused
    on the preprocessed tokens (category device_code; the verdict is the static check's)."""
    from bench_runner.evaluate import evaluate

    src = (body if "#include" in body else '#include "kernel_operator.h"\n' + _PASTE + body) + "\n"
    assert static_check.device_code_findings(src, "kernel.cpp") == []  # the text alone hides it
    result = evaluate("add_fp16_static", src, use_cache=False, baseline=False)
    assert result.verdict.value == "sandbox_violation", result.reason
    d = result.diagnostics[0]
    assert d.category is Category.DEVICE_CODE and d.file == "kernel.cpp" and needle in d.message, d


def test_emulator_macros_stay_allowed() -> None:
    from bench_runner import tasks
    from bench_runner.evaluate import evaluate

    src = tasks.get_task("lstm_cell_fp32").expert_kernel.read_text()  # GET_TILING_DATA reaches AscendC::sim
    assert "GET_TILING_DATA" in src
    result = evaluate("lstm_cell_fp32", src, use_cache=False, baseline=False)
    assert result.verdict.value == "passed", result.reason


def test_the_matmul_apis_macro_stays_allowed() -> None:
    """REGIST_MATMUL_OBJ comes from lib/matmul_intf.h, which kernels include themselves: the
    exemption's macro table lacked it, so once the preprocessed tokens were read (a pasting macro;
    NPUKernelBench's InplaceFusedMatmulSoftmaxGrad on the host_device path) its expansion was
    refused as "refers to the emulator's internals" (issue #31)."""
    from bench_runner import tasks
    from bench_runner.evaluate import evaluate

    src = tasks.get_task("matmul_api_bias_fp16").expert_kernel.read_text()
    assert "REGIST_MATMUL_OBJ" in src
    pasted = "#define AKGEN_CAT(a, b) a##b\n" + src
    assert static_check.may_hide_tokens(pasted, {})
    result = evaluate("matmul_api_bias_fp16", pasted, use_cache=False, baseline=False)
    assert result.verdict.value == "passed", (result.reason, result.diagnostics[:2])


def test_a_form_feed_does_not_shift_the_lines_the_exemption_reads() -> None:
    """g++ counts lines by newlines only; Python's str.splitlines also breaks at a form feed, which
    CANN sources carry in comments (NPUKernelBench's common_dtype.h). The exemption for an emulator
    macro then read the line above and refused the macro's own expansion (issue #31)."""
    from bench_runner import tasks
    from bench_runner.evaluate import evaluate

    src = tasks.get_task("lstm_cell_fp32").expert_kernel.read_text()
    # the pasting macro makes the static check read the preprocessed tokens too
    shifted = "// a page break \x0c here\n#define AKGEN_CAT(a, b) a##b\n" + src
    assert static_check.may_hide_tokens(shifted, {})
    result = evaluate("lstm_cell_fp32", shifted, use_cache=False, baseline=False)
    assert result.verdict.value == "passed", (result.reason, result.diagnostics[:2])


@pytest.mark.parametrize(("text", "hides"), [
    ("int x = 1;\n", False),
    ('#include "kernel_operator.h"\n#include <cstdint>\n', False),
    ('const char* s = "a ## b";  // ## in a comment\n', False),
    ("#define F fopen\n", True),
    ("  #  define F(x) x\n", True),
    ("int y = a ## b;\n", True),
    ("%:define F fopen\n", True),
    ("int z = 1 ??/\n;\n", True),
    ("as\\\nm(\"nop\");\n", True),
    ("#include HEADER\n", True),
    ("PASTE(a, b);\n", True),  # a macro of the toolchain's that pastes its arguments
    ('#line 10 "/usr/include/stdio.h"\n', True),
    ('# 10 "/usr/include/stdio.h"\n', True),
])
def test_may_hide_tokens(text: str, hides: bool) -> None:
    assert static_check.may_hide_tokens(text, {"PASTE": "a##b", "PLAIN": "x"}) is hides


@pytest.mark.parametrize("directive", ['#line 1 "/usr/include/stdio.h"', '# 1 "/usr/include/stdio.h"'])
def test_a_line_directive_cannot_pass_tokens_off_as_a_system_headers(directive: str) -> None:
    """`#line` renaming the file would hide a pasted `asm` from the rules, which read only the
    submitted files' lines: the rename itself is refused."""
    from bench_runner.evaluate import evaluate

    src = '#include "kernel_operator.h"\n' + _PASTE + directive + '\nvoid f() { CAT(as, m)("nop"); }\n'
    result = evaluate("add_fp16_static", src, use_cache=False, baseline=False)
    assert result.verdict.value == "sandbox_violation", result.reason
    assert any("#line names another file" in d.message for d in result.diagnostics), result.diagnostics


def test_line_splice_cannot_hide_assembly() -> None:
    from bench_runner.evaluate import evaluate

    src = '#include "kernel_operator.h"\nvoid f() { as\\\nm("nop"); }\n'
    assert static_check.check(src, "kernel.cpp") == []
    result = evaluate("add_fp16_static", src, use_cache=False, baseline=False)
    assert result.verdict.value == "sandbox_violation", result.reason
    assert result.diagnostics[0].line == 2


def test_plain_kernels_skip_the_preprocessor_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench_runner import tasks, toolchains
    from bench_runner.evaluate import evaluate

    calls = []
    cls = type(toolchains.get("cpu-sim"))
    original = cls.preprocess
    monkeypatch.setattr(cls, "preprocess", lambda self, *a: calls.append(a) or original(self, *a))
    src = tasks.get_task("add_fp16_static").expert_kernel.read_text()
    assert evaluate("add_fp16_static", src, use_cache=False, baseline=False).verdict.value == "passed"
    assert calls == []
    evaluate("add_fp16_static", "#define ONE 1\n" + src, use_cache=False, baseline=False)
    assert len(calls) == 1
