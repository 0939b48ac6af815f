"""Every emulator method that stores into its object first checks that the object is the kernel's.

Why (issue #30): the emulator's inline code is compiled uninstrumented (noinstr_begin.h), so its
stores bypass the guard on the kernel's own stores. A kernel that casts an address inside the
emulator's records (or the launcher's frames) to an emulator class and calls a setter on it would
write there unchecked and could rewrite its own clocks. Each such method therefore checks its
object (``sim::kernel_memory`` or ``ASCEND_SIM_OWNED``, or, in the Matmul API, its ``Check``).
Objects come into being by declaration only: device_code.SOURCE_RULES refuses placement new and
explicit destructor calls, so constructors need no check.

This test reads the headers: a new setter that stores into its object without the check fails
it, with the file and line. tests/bench_runner/test_accounting_tamper.py drives the attacks.
"""

from __future__ import annotations

import re
from pathlib import Path

from bench_runner.ascend_sim import build

#: What counts as the check in a method's body.
CHECKS = ("kernel_memory(", "ASCEND_SIM_OWNED(", "Check(")
#: `inline` functions (the emulator's, NOINSTR) with their name, parameters and an opening brace.
_FUNCTION = re.compile(r"\binline\s+(?:[\w:<>,*&\s]+?\s+)?([~\w]+)\s*\(([^;{]*?)\)\s*(const\s*)?(?:noexcept\s*)?\{")
#: A store into a data member (members end in `_`), of this object or of an object passed in.
_MEMBER_STORE = re.compile(r"(?<![\w.>])(?:[a-z]\w*\.|this->)?\b([a-z]\w*_)\s*(?:\[[^\]]*\]\s*)?"
                           r"(?:[-+*/|&^]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*\b([a-z]\w*_)\b")


def _body(text: str, start: int) -> str:
    depth, i = 1, start
    while depth and i < len(text):
        depth += (text[i] == "{") - (text[i] == "}")
        i += 1
    return text[start:i]


def unchecked_setters(root: Path) -> list[str]:
    """``file:line name`` of each inline, non-const function that stores into a member unchecked."""
    found = []
    for path in sorted(root.rglob("*.h")):
        text = path.read_text()
        for m in _FUNCTION.finditer(text):
            name, const = m.group(1), m.group(3)
            before = text[max(0, m.start() - 80):m.start()]
            if const or "static" in before.rsplit("\n", 1)[-1]:
                continue
            if re.search(rf"\b(?:class|struct)\s+{re.escape(name)}\b", text) or name.startswith("~"):
                continue  # a constructor or destructor: objects are made by declaration only
            body = _body(text, m.end())
            if _MEMBER_STORE.search(body) and not any(c in body for c in CHECKS):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(root)}:{line} {name}")
    return found


def test_every_setter_checks_its_object() -> None:
    assert unchecked_setters(build.include_dir()) == []


def test_the_scan_finds_an_unchecked_setter(tmp_path: Path) -> None:
    """The scan itself can fail: a setter without the check, and one with it."""
    (tmp_path / "x.h").write_text(
        "class G {\n public:\n"
        "    __aicore__ inline void SetGlobalBuffer(int* b, unsigned long n) {\n        addr_ = b;\n        size_ = n;\n    }\n"
        "    __aicore__ inline void SetSize(unsigned long n) {\n"
        "        sim::kernel_memory(this, sizeof *this, \"G::SetSize\");\n        size_ = n;\n    }\n"
        "    __aicore__ inline unsigned long GetSize() const { return size_; }\n"
        "    __aicore__ inline G() { size_ = 0; }\n"
        "    __aicore__ inline void Bump() { ++count_; }\n"
        " private:\n    int* addr_;\n    unsigned long size_, count_;\n};\n")
    assert unchecked_setters(tmp_path) == ["x.h:3 SetGlobalBuffer", "x.h:13 Bump"]
