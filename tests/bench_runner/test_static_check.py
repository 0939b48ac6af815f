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


def test_emulator_macros_stay_allowed() -> None:
    from bench_runner import tasks
    from bench_runner.evaluate import evaluate

    src = tasks.get_task("lstm_cell_fp32").expert_kernel.read_text()  # GET_TILING_DATA reaches AscendC::sim
    assert "GET_TILING_DATA" in src
    result = evaluate("lstm_cell_fp32", src, use_cache=False, baseline=False)
    assert result.verdict.value == "passed", result.reason


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
