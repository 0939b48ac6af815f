"""Refuse submissions that reach for the operating system, the emulator's internals or the clock.

The sandbox is the security boundary; this check is about honesty and clear feedback. A kernel
has no reason to open files, start processes or threads, read the environment, talk to the
network, register exit hooks or touch ``AscendC::sim`` (the emulator's bookkeeping, including
the cycle counts it reports). Refusing those up front gives a precise diagnostic instead of a
seccomp kill, and closes the easiest ways to fake a result from inside the process.
Comments and string literals are blanked first, so mentioning a name is not using it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bench_runner import device_code
from bench_runner.taxonomy import Category, Diagnostic

if TYPE_CHECKING:
    from bench_runner.toolchains.base import Preprocessed

_CALLS = ("system", "popen", "fork", "vfork", "execv", "execve", "execvp", "execl", "execlp", "execle",
          "posix_spawn", "posix_spawnp", "socket", "connect", "dlopen", "dlsym", "pthread_create",
          "syscall", "ptrace", "fopen", "freopen", "open", "openat", "creat", "mmap", "getenv",
          "setenv", "putenv", "atexit", "at_quick_exit", "clock_gettime", "gettimeofday")
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"(?<![\w.>$])(?:::|std::)?({'|'.join(_CALLS)})\s*\("),
     "calls {0}(): kernels and host tiling may not use files, processes, the network, the "
     "environment, exit hooks or clocks"),
    (re.compile(r"\bstd::(thread|jthread|async)\b"), "uses std::{0}: kernels may not start threads"),
    (re.compile(r"\b(asm|__asm__|__asm)\b"), "uses inline assembly ({0})"),
    (re.compile(r"__attribute__\s*\(\(\s*(constructor|destructor)"),
     "uses __attribute__(({0})): code may not run outside the kernel launch"),
    # `sim` alone too: after `using namespace AscendC`, `sim::tl_core` or `namespace s = sim;`
    # reaches the same bookkeeping.
    (re.compile(r"\b(AscendC\s*::\s*sim|ascend_sim|ASCEND_SIM_\w*|sim)\b"),
     "refers to the emulator's internals ({0}); use only the AscendC API"),
    (re.compile(r"(/proc/|/dev/|/sys/)"), "refers to the host path {0}"),
    # The scalar-work instrumentation (ascend_sim scalar_hooks.h) must see all of the kernel's code:
    # no call-back names, no attributes or pragmas that switch instrumentation off. (Builtins,
    # target attributes and x86 intrinsics are device-code rules: device_code.SOURCE_RULES.)
    (re.compile(r"\b(__sanitizer_\w*|__asan_\w*|__tsan_\w*|__cyg_profile\w*)"),
     "refers to the emulator's instrumentation call-backs ({0})"),
    (re.compile(r"\b(no_sanitize\w*|__no_sanitize\w*|no_instrument_function|no_address_safety_analysis|"
                r"no_stack_protector|ifunc|weakref)\b"),
     "uses the attribute {0}, which would hide code from the cost model"),
    (re.compile(r"^\s*#\s*pragma\s+(GCC\s+(?:optimize|push_options|pop_options|poison)|clang)\b", re.M),
     "uses #pragma {0}"),
    (re.compile(r"\b(_Pragma)\b"), "uses {0}: kernels reach the hardware through the AscendC API only"),
    (re.compile(r"^\s*#\s*include\s*[<\"]((?:/|[^>\"]*\.\.)[^>\"]*)[>\"]", re.M),
     "includes {0}: only the task's headers and system headers by name are allowed"),
    (re.compile(r"^\s*#\s*include\s*<((?:sys|linux|asm|net|netinet|arpa)/[^>]*|unistd\.h|dlfcn\.h|"
                r"fstream|thread|future|csignal|signal\.h|fcntl\.h|spawn\.h|pthread\.h|filesystem)>", re.M),
     "includes <{0}>, which a kernel has no use for"),
]


def strip_comments_and_strings(src: str) -> str:
    """Blank out comments, string and char literals, keeping line structure and offsets."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c in "\"'" and not _is_include_line(src, i):
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _is_include_line(src: str, pos: int) -> bool:
    start = src.rfind("\n", 0, pos) + 1
    return re.match(r"\s*#\s*include\b", src[start:pos]) is not None


def check(source: str, file: str) -> list[Diagnostic]:
    """Forbidden constructs in one submitted file, each as a located diagnostic."""
    return _apply(_RULES, strip_comments_and_strings(source), file, Category.SANDBOX_VIOLATION)


def device_code_findings(source: str, file: str) -> list[Diagnostic]:
    """The device-code source rules (device_code.SOURCE_RULES: builtins outside the pure-arithmetic
    list, x86 intrinsics, target attributes and pragmas) on one submitted file, category
    ``device_code``. The cpu-sim build applies them before compiling, so the refusal is a compile
    error at the kernel's line, like the device-code poison's."""
    return _apply(device_code.SOURCE_RULES, strip_comments_and_strings(source), file, Category.DEVICE_CODE)


def _apply(rules: list[tuple[re.Pattern[str], str]], clean: str, file: str, category: Category) -> list[Diagnostic]:
    found = []
    for pattern, template in rules:
        for m in pattern.finditer(clean):
            line = clean.count("\n", 0, m.start()) + 1
            found.append(Diagnostic(category, template.format(m.group(1)), file, line, None, "static_check"))
    found.sort(key=lambda d: d.line or 0)
    return found


# ---------------------------------------------------------------------------------------------
# The same rules on the preprocessor's output
#
# Token pasting (``CAT(as, m)``), a forbidden call or ``#include`` through a macro and
# ``_Pragma`` only exist after preprocessing, so the toolchain also runs ``g++ -E -dD`` on the
# submitted file (inside the sandbox, with the real compile's flags) and the rules run again on
# the lines the linemarkers attribute to that file. The emulator's own macros expand to names
# the rules refuse (``GET_TILING_DATA`` reaches ``AscendC::sim``); a finding is let through when
# the original line names a macro whose definition, followed through the macros it names
# literally, contains that very fragment. A name built by pasting is no literal name, so it
# never earns that exemption.

_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"((?: \d)*)\s*$')
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)(?:\([^)]*\))?\s?(.*)$")
_UNDEF = re.compile(r"^\s*#\s*undef\s+(\w+)")
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_PP_RULES = [r for r in _RULES if "include" not in r[1]]
_PP_DEVICE_RULES = [r for r in device_code.SOURCE_RULES if "include" not in r[1]]
_X86_HEADER = re.compile(rf"(?:^|/){device_code.X86_HEADER}$")


def macro_table(defines: str) -> dict[str, str]:
    """``#define`` lines (``g++ -dM`` output) as name → replacement text."""
    table = {}
    for line in defines.split("\n"):
        m = _DEFINE.match(line)
        if m:
            table[m.group(1)] = m.group(2)
    return table


def _fragments(name: str, macros: dict[str, str], memo: dict[str, frozenset[str]],
               stack: frozenset[str] = frozenset()) -> frozenset[str]:
    if name in memo:
        return memo[name]
    body = macros.get(name)
    if body is None or name in stack:
        return frozenset()
    clean = strip_comments_and_strings(body)
    found = {m.group(1) for pattern, _ in (*_PP_RULES, *_PP_DEVICE_RULES) for m in pattern.finditer(clean)}
    for ident in set(_IDENT.findall(clean)) - {name}:
        found |= _fragments(ident, macros, memo, stack | {name})
    memo[name] = frozenset(found)
    return memo[name]


# What can make the preprocessor's tokens differ from the text's, or their file: a definition
# (``#define``, also as the digraph ``%:``), a ``#line`` (or ``# N "file"``) that renames the file,
# pasting or stringising, a computed ``#include``, a line splice
# (backslash-newline; ``??/`` with trigraphs), or a call of one of the toolchain's macros that
# pastes its arguments. A file with none of these preprocesses to its own tokens plus the
# toolchain's macro bodies, which are ours.
_HIDING = re.compile(r"^\s*(?:#|%:)\s*(?:define|line)\b|##|%:|\?\?|\\\s*$|^\s*#\s*include\s*[^\s<\"]|^\s*#\s*\d",
                     re.M)


def may_hide_tokens(source: str, macros: dict[str, str]) -> bool:
    """True when preprocessing ``source`` could produce a token its text does not show."""
    clean = strip_comments_and_strings(source)
    if _HIDING.search(clean):
        return True
    pasting = {name for name, body in macros.items() if "#" in body}
    return any(name in pasting for name in _IDENT.findall(clean))


def check_preprocessed(pre: Preprocessed, originals: dict[str, str]) -> list[Diagnostic]:
    """The token rules on ``g++ -E -dD`` output, for the lines from the submitted files.

    ``pre.files`` maps a linemarker's file name to the reported one (``kernel.cpp``);
    ``originals`` holds the submitted texts by reported name, so an exemption is judged on the
    line as written; lines of the other files (the task's fixed host, which the kernel may
    include for its tiling struct) are the task's, not the submitter's, and are not judged. A file entered from a submitted line outside ``pre.include_roots``
    (an ``#include`` through a macro) is refused too.
    """
    text, files, allowed_include_roots = pre.text, pre.files, pre.include_roots
    macros = dict(pre.macros)
    lines: dict[tuple[str, int], list[str]] = {}
    exempt: dict[tuple[str, int], set[str]] = {}
    found: list[Diagnostic] = []
    current, line = None, 0
    for raw in text.split("\n"):
        marker = _MARKER.match(raw)
        if marker:
            name, flags = marker.group(2), marker.group(3).split()
            escapes = ".." in name or ("/" in name and not any(name.startswith(r) for r in allowed_include_roots))
            if "1" in flags and current in files and name not in files and not name.startswith("<") and escapes:
                found.append(Diagnostic(Category.SANDBOX_VIOLATION, f"includes {name} (through a macro): only "
                                        "the task's headers and system headers by name are allowed",
                                        files[current], max(line, 1), None, "static_check"))
            if "1" in flags and files.get(current) == "kernel.cpp" and _X86_HEADER.search(name):
                found.append(Diagnostic(Category.DEVICE_CODE, device_code.X86_INCLUDE_MESSAGE.format(
                    name.rsplit("/", 1)[-1]), files[current], max(line, 1), None, "static_check"))
            if not flags and current in files and name not in files and name != current and not name.startswith("<"):
                # a `#line N "file"` in a submitted file: it would pass the submission's tokens off
                # as another file's (a system header's), which the rules do not read
                found.append(Diagnostic(Category.SANDBOX_VIOLATION, f"#line names another file ({name}): "
                                        "submitted code must keep its own file name", files[current],
                                        max(line, 1), None, "static_check"))
            current, line = name, int(marker.group(1))
            continue
        if current in files:
            d, u = _DEFINE.match(raw), _UNDEF.match(raw)
            if d:
                macros[d.group(1)] = d.group(2)
            elif u:
                macros.pop(u.group(1), None)
            else:
                key = (files[current], line)
                lines.setdefault(key, []).append(raw)
                if key not in exempt:
                    src = originals.get(key[0], "").split("\n")
                    written = strip_comments_and_strings(src[line - 1]) if 0 < line <= len(src) else ""
                    memo: dict[str, frozenset[str]] = {}
                    exempt[key] = set().union(*(_fragments(i, macros, memo) for i in set(_IDENT.findall(written))))
        line += 1
    for (file, lineno), texts in lines.items():
        if file not in originals:  # the task's own files (the fixed host of the device_only path)
            continue
        clean = strip_comments_and_strings("\n".join(texts))
        device = _PP_DEVICE_RULES if file == "kernel.cpp" else []  # host code is not device code
        for rules, category in ((_PP_RULES, Category.SANDBOX_VIOLATION), (device, Category.DEVICE_CODE)):
            for pattern, template in rules:
                for m in pattern.finditer(clean):
                    if m.group(1) not in exempt[(file, lineno)]:
                        found.append(Diagnostic(category, template.format(m.group(1)), file, lineno, None,
                                                "static_check"))
    found.sort(key=lambda d: d.line or 0)
    return found
