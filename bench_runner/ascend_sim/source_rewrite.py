"""Rewrite the two bisheng-only syntaxes of AscendC sources into C++ that g++ accepts.

Why: sources written for the NPU toolchain use two constructs that are not C++ and that bisheng
translates itself before compiling:

* the kernel launch ``add_custom<<<blockDim, l2ctrl, stream>>>(x, y, z);`` (CUDA-style
  "kernel call operator"; CANN 7/8 samples and direct-launch sources), and
* the function attribute ``extern "C" __global__ [aicore] void f(...)`` (bisheng's spelling of
  ``__aicore__``, seen in generated and hand-written public kernels),

and two C++ constructs bisheng (clang) accepts and g++ does not: explicit specialisations of
member function templates inside their class (Catlass; ``member_specialization.py``), and
constexpr constructors that leave members to their body (Catlass's ``Coord``; C++20 rules;
``constexpr_members.py``).

cpu-sim compiles the file unchanged otherwise, so these are rewritten as text, before g++ sees
it: ``K<<<cfg>>>(args)`` becomes ``K ->* __ascendc_kernel_launch("K", cfg)(args)`` (the
emulator's ``ascend_sim/kernel_launch.h`` turns that into an ``ICPU_RUN_KF``-style launch on
``blockDim`` emulated cores; ``->*`` binds looser than the call, so no text before ``K`` has to
change) and ``[aicore]`` becomes blanks. Every newline stays where it was, so compiler
diagnostics keep the author's line numbers; comments, string and character literals are never
touched. Pure text to text: no file system, no compiler.
"""

from __future__ import annotations

import re

from bench_runner.ascend_sim import constexpr_members, member_specialization

#: The emulator's launch helper (bench_runner/ascend_sim/include/ascend_sim/kernel_launch.h).
LAUNCH_FN = "__ascendc_kernel_launch"

_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
#: ``[aicore]``, and bisheng's two-target spelling ``[host, aicore]`` (Catlass's CATLASS_HOST_DEVICE).
_AICORE = re.compile(r"\[[ \t]*(?:host[ \t]*,[ \t]*)?aicore(?:[ \t]*,[ \t]*host)?[ \t]*\]")
#: Words that may stand right before ``[aicore]`` in a declaration (anything else before it
#: makes the brackets a subscript, as in ``cores[aicore]``).
_DECL_WORDS = frozenset({"__global__", "extern", "static", "inline", "__inline__", "__forceinline__", "__aicore__",
                         "__host__", "__device__", "__vector__", "__cube__", "constexpr", "friend"})
#: Words that follow a lambda's capture list, never a declaration's attribute.
_LAMBDA_WORDS = frozenset({"mutable", "constexpr", "consteval", "noexcept"})


def rewrite(text: str) -> str:
    """``text`` with ``<<<…>>>`` launches and ``[aicore]`` attributes turned into plain C++."""
    if "<<<" not in text and "aicore" not in text and "template" not in text and "constexpr" not in text:
        return text
    code = code_mask(text)
    edits = (_launch_edits(text, code) + _aicore_edits(code) + member_specialization.edits(code)
             + constexpr_members.edits(code))
    if not edits:
        return text
    edits.sort()
    out, pos = [], 0
    for start, end, new in edits:
        if start < pos:  # overlapping edits cannot happen for valid input; keep the first
            continue
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    result = "".join(out)
    assert result.count("\n") == text.count("\n"), "source_rewrite must preserve line numbers"
    return result


def code_mask(text: str) -> str:
    """``text`` with comments and string/char literals replaced by spaces (newlines kept).

    Same length as ``text``, so an offset found in the mask is an offset in the source.
    Handles ``//`` and ``/* */`` comments, escapes, raw strings ``R"d(...)d"`` with any
    encoding prefix, and C++14 digit separators (``1'000`` is not a character literal).
    """
    out: list[str] = []
    i, n = 0, len(text)

    def blank(s: str) -> str:
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = i
            while True:  # a backslash-newline continues a line comment
                k = text.find("\n", j)
                if k < 0:
                    j = n
                    break
                if k > 0 and text[k - 1] == "\\":
                    j = k + 1
                    continue
                j = k
                break
            out.append(blank(text[i:j]))
            i = j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' and _raw_prefix(text, i):
            m = re.match(r'"([^()\\\s]{0,16})\(', text[i:])
            if m is None:
                out.append(c)
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            j = text.find(close, i + m.end())
            if j < 0:  # unterminated: blank to the end
                out.append('"' + blank(text[i + 1:]))
                i = n
            else:
                j += len(close)
                out.append('"' + blank(text[i + 1:j - 1]) + '"')
                i = j
        elif c in "\"'":
            if c == "'" and _digit_separator(text, i):
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if j < n and text[j] == c:  # closed: keep both quotes
                out.append(c + blank(text[i + 1:j]) + c)
                i = j + 1
            else:  # unterminated: blank to the end of the line
                j = min(j, n)
                out.append(c + blank(text[i + 1:j]))
                i = j
        else:
            out.append(c)
            i += 1
    mask = "".join(out)
    assert len(mask) == len(text)
    return mask


def _word_before(text: str, i: int) -> str:
    j = i
    while j > 0 and text[j - 1] in _IDENT_CHARS:
        j -= 1
    return text[j:i]


def _raw_prefix(text: str, i: int) -> bool:
    """Whether the quote at ``i`` opens a raw string (``R"``, ``u8R"``, ``LR"`` …)."""
    word = _word_before(text, i)
    return word in ("R", "u8R", "uR", "UR", "LR")


def _digit_separator(text: str, i: int) -> bool:
    """Whether the apostrophe at ``i`` separates digits of a number (``0x1'FF``, ``1'000``)."""
    word = _word_before(text, i)
    return bool(word) and word[0].isdigit() and i + 1 < len(text) and text[i + 1] in _IDENT_CHARS


def _prev_significant(code: str, i: int) -> int:
    """Index of the last non-blank character before ``i`` (-1 if none)."""
    j = i - 1
    while j >= 0 and code[j].isspace():
        j -= 1
    return j


def _next_significant(code: str, i: int) -> int:
    j = i
    while j < len(code) and code[j].isspace():
        j += 1
    return j


def _launch_edits(text: str, code: str) -> list[tuple[int, int, str]]:
    edits = []
    pos = 0
    while True:
        start = code.find("<<<", pos)
        if start < 0:
            return edits
        pos = start + 3
        end = _config_end(code, start + 3)
        if end is None:
            continue
        after = _next_significant(code, end + 3)
        if after >= len(code) or code[after] != "(":
            continue
        name = _callee_text(text, code, start)
        if not name:
            continue
        config = text[start + 3:end]
        if not config.strip():
            continue
        literal = '"' + " ".join(name.split()).replace("\\", "\\\\").replace('"', '\\"') + '"'
        edits.append((start, end + 3, f" ->* {LAUNCH_FN}({literal}, {config})"))
        pos = end + 3


def _config_end(code: str, i: int) -> int | None:
    """Offset of the ``>>>`` closing a launch configuration that starts at ``i``."""
    depth = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return None
            depth -= 1
        elif c == ";" and depth == 0:
            return None
        elif depth == 0 and code.startswith(">>>", i):
            return i
        i += 1
    return None


def _callee_text(text: str, code: str, lt: int) -> str:
    """The kernel expression right before ``<<<`` (``ns::kernel<float>``), for its name only."""
    j = _prev_significant(code, lt)
    end = j + 1
    while j >= 0:
        if code[j] == ">":  # template arguments: skip the balanced <...>
            depth = 0
            while j >= 0:
                depth += code[j] == ">"
                depth -= code[j] == "<"
                if depth == 0:
                    break
                j -= 1
            j = _prev_significant(code, j)
        if j < 0 or code[j] not in _IDENT_CHARS:
            return ""
        while j >= 0 and code[j] in _IDENT_CHARS:
            j -= 1
        start = j + 1
        k = _prev_significant(code, start)
        if k >= 1 and code[k] == ":" and code[k - 1] == ":":  # a qualified name: keep walking
            j = _prev_significant(code, k - 1)
            if j >= 0 and (code[j] in _IDENT_CHARS or code[j] == ">"):
                continue
            return text[k - 1:end].strip()
        return text[start:end].strip()
    return ""


def _aicore_edits(code: str) -> list[tuple[int, int, str]]:
    edits = []
    for m in _AICORE.finditer(code):
        p = _prev_significant(code, m.start())
        after_decl_word = False
        if p >= 0:
            ch = code[p]
            if ch in _IDENT_CHARS:
                if _word_before(code, p + 1) not in _DECL_WORDS:
                    continue  # a subscript: cores[aicore]
                after_decl_word = True
            elif ch not in ';{}">':
                continue  # `)` or `]` before it: a subscript; `=` `,` `(`: a lambda
        if after_decl_word and _ends_macro_line(code, m.end()):
            # `#define CATLASS_DEVICE __forceinline__ [aicore]`: the attribute, at a macro's end
            edits.append((m.start(), m.end(), " " * (m.end() - m.start())))
            continue
        q = _next_significant(code, m.end())
        if q >= len(code) or not (code[q] in _IDENT_CHARS or (code[q] == "~" and after_decl_word)) \
                or code[q].isdigit():
            continue  # `[aicore]` before a name, or a destructor's `~`, is the attribute
        word = code[q:q + 16].split("(")[0].split()[0] if code[q:q + 16].split() else ""
        # After a declaration word (`__forceinline__ [aicore] constexpr T f()`, Catlass's
        # CATLASS_DEVICE) it is the attribute; at a statement's start `[x] mutable` is a lambda.
        if word.rstrip("*&") in _LAMBDA_WORDS and not after_decl_word:
            continue
        edits.append((m.start(), m.end(), " " * (m.end() - m.start())))
    return edits


def _ends_macro_line(code: str, i: int) -> bool:
    """Whether only blanks follow ``i`` on its line, and the line is a ``#define``."""
    end = code.find("\n", i)
    end = len(code) if end < 0 else end
    if code[i:end].strip():
        return False
    start = code.rfind("\n", 0, i) + 1
    return re.match(r"[ \t]*#[ \t]*define\b", code[start:end]) is not None
