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
