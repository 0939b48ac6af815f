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

from bench_runner.taxonomy import Category, Diagnostic

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
    (re.compile(r"\b(AscendC\s*::\s*sim|ascend_sim|ASCEND_SIM_\w*)\b"),
     "refers to the emulator's internals ({0}); use only the AscendC API"),
    (re.compile(r"(/proc/|/dev/|/sys/)"), "refers to the host path {0}"),
    # The scalar-work instrumentation (ascend_sim scalar_hooks.h) must see all of the kernel's code:
    # no call-back names, no attributes or pragmas that switch instrumentation off, no builtins
    # that reach libc past the device-code poison.
    (re.compile(r"\b(__sanitizer_\w*|__asan_\w*|__tsan_\w*|__cyg_profile\w*)"),
     "refers to the emulator's instrumentation call-backs ({0})"),
    (re.compile(r"\b(no_sanitize\w*|__no_sanitize\w*|no_instrument_function|no_address_safety_analysis|"
                r"no_stack_protector|ifunc|weakref)\b"),
     "uses the attribute {0}, which would hide code from the cost model"),
    (re.compile(r"^\s*#\s*pragma\s+(GCC\s+(?:optimize|push_options|pop_options|target|poison)|clang)\b", re.M),
     "uses #pragma {0}"),
    (re.compile(r"\b(_Pragma|__builtin_(?!(?:expect|FILE|LINE|FUNCTION|unreachable|constant_p|offsetof|bit_cast|"
                r"isnan|isinf|huge_val\w*|inf\w*|nan\w*|clz\w*|ctz\w*|popcount\w*|parity\w*|ffs\w*|bswap\w*|"
                r"abs|fabs\w*|copysign\w*)\b)\w+)"),
     "uses {0}: kernels reach the hardware through the AscendC API only"),
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
    clean = strip_comments_and_strings(source)
    found = []
    for pattern, template in _RULES:
        for m in pattern.finditer(clean):
            line = clean.count("\n", 0, m.start()) + 1
            found.append(Diagnostic(Category.SANDBOX_VIOLATION, template.format(m.group(1)), file, line,
                                    None, "static_check"))
    found.sort(key=lambda d: d.line or 0)
    return found
