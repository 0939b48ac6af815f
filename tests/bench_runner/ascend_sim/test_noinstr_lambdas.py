"""Lambdas in the emulator's headers are emulator code, not the kernel's.

The kernel's translation unit is instrumented so that its scalar work is charged; the headers mark
their own functions uninstrumented by redefining ``inline`` (noinstr_begin.h). A lambda is never
declared ``inline``, so it stays instrumented unless it carries ASCEND_SIM_NOINSTR itself: GCC
then calls the emulator's helpers from instrumented code instead of inlining them, and every
access runs through the scalar hooks (the Matmul API's block loop ran 2x slower that way, #23).
"""

from __future__ import annotations

import re
from pathlib import Path

INCLUDE = Path(__file__).resolve().parents[3] / "bench_runner" / "ascend_sim" / "include"
#: A lambda: its capture list (not a subscript or ``operator[]``: no name or bracket right before
#: it), its parameter list (one level of nested parentheses) and the token after them.
_LAMBDA = re.compile(r"(?<![\w\])])\[[&=\w\s,*]*\]\s*\(((?:[^()]|\([^()]*\))*)\)\s*(?:mutable\s*)?"
                     r"(?P<after>[^\s{]*)")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def _kernel_headers() -> list[Path]:
    """Headers compiled into the kernel's translation unit (the *_impl.h files build the runtime)."""
    return sorted(p for p in INCLUDE.rglob("*.h") if not p.name.endswith("_impl.h"))


def _uninstrumented_lambdas_missing(text: str) -> list[int]:
    # Comments blanked out, line breaks kept (the line numbers stay right).
    text = _COMMENT.sub(lambda c: re.sub(r"[^\n]", " ", c.group()), text)
    lines = []
    for m in _LAMBDA.finditer(text):
        if m.group("after").startswith("ASCEND_SIM_NOINSTR"):
            continue
        lines.append(text.count("\n", 0, m.start()) + 1)
    return lines


def test_every_lambda_in_the_kernel_side_headers_is_marked_uninstrumented() -> None:
    headers = _kernel_headers()
    assert any(p.name == "matmul_intf.h" for p in headers), "the scan must see the Matmul API header"
    missing = {str(p.relative_to(INCLUDE)): lines for p in headers
               if (lines := _uninstrumented_lambdas_missing(p.read_text(encoding="utf-8")))}
    assert not missing, f"lambdas without ASCEND_SIM_NOINSTR (file: lines): {missing}"


def test_the_scan_finds_an_unmarked_lambda() -> None:
    assert _uninstrumented_lambdas_missing("auto f = [&](int i, int k) -> float { return a[i]; };") == [1]
    assert _uninstrumented_lambdas_missing("auto g = [&](const auto& v) ASCEND_SIM_NOINSTR { v(); };") == []
    assert _uninstrumented_lambdas_missing("x = a[i](3);\nauto h = [=]() mutable { };") == [2]
