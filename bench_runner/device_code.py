"""What a kernel translation unit may call: an allow-list, enforced on the source and on the object.

Why: cpu-sim charges the kernel's own code as scalar work through instrumentation (basic blocks
and pointer loads/stores, ascend_sim/scalar_hooks.h) and the AscendC API through the emulator's
cost model. Anything else the kernel reaches — host libc (``bcopy``, ``wmemcpy``), libm, x86
intrinsics built on target builtins, code compiled for another instruction set — runs
uninstrumented and therefore free, so a kernel could move or compute its data for nothing. A
deny-list of such names never ends; this module says what *is* allowed:

(a) the AscendC API: every symbol the emulator's runtime object defines (not the standard
    library's instantiations it happens to carry) and the emulator's inline code;
(b) the scalar math and memory routines the runtime charges (ascend_sim/scalar_math.h): the
    kernel's object is linked against ``ascend_sim_kernel_<name>`` instead of ``<name>``
    (``objcopy --redefine-sym``), so each call costs its documented cycles on the S pipe;
(c) what the compiler itself emits (unwinding, guards, libgcc arithmetic helpers) and builtins
    that are pure arithmetic.

Everything else is refused at compile time, category ``device_code``: first on the source text
(:data:`SOURCE_RULES`, with the kernel's line: x86 intrinsic headers and names, ``target``
attributes and pragmas, builtins outside (c)), then on the compiled object (:func:`check_object`):
any undefined symbol that the kernel's own code can reach and that (a)–(c) do not allow, named
with the function that calls it. The object check needs no list of bad names, so a libc routine
nobody thought of is refused too. See docs/ascend_sim.md, "Device code is device code".
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from bench_runner import elf_object
from bench_runner.errors import ToolchainUnavailableError
from bench_runner.taxonomy import Category, Diagnostic

#: (c) Builtins that are pure arithmetic or compile-time facts: everything else spelled
#: ``__builtin_*`` reaches memory, the C library or target instructions past the cost model.
PURE_BUILTINS = (r"expect|FILE|LINE|FUNCTION|unreachable|constant_p|offsetof|bit_cast|isnan|isinf|huge_val\w*|"
                 r"inf\w*|nan\w*|clz\w*|ctz\w*|popcount\w*|parity\w*|ffs\w*|bswap\w*|abs|fabs\w*|copysign\w*")

_RULE = "device code may call only the AscendC API, the charged scalar math and pure-arithmetic builtins"
#: GCC's x86 intrinsic headers (immintrin.h, emmintrin.h, avx2intrin.h …, x86intrin.h, cpuid.h).
X86_HEADER = r"(?:[a-z0-9]+intrin|cpuid|mm3dnow|mm_malloc)\.h"
X86_INCLUDE_MESSAGE = ("includes <{0}>: x86 intrinsics are instructions of the host CPU, not of the AI core, and "
                       "bypass the cost model; " + _RULE)
#: Source rules (pattern, message with {0} = what matched), applied to the comment- and
#: string-blanked text of the submitted kernel, and to its preprocessed tokens when the text could
#: hide some (static_check.device_code_findings, static_check.check_preprocessed).
SOURCE_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\b(__builtin_(?!(?:{PURE_BUILTINS})\b)\w+)"),
     "uses {0}: " + _RULE + " (__builtin_expect, __builtin_clz, __builtin_isnan …)"),
    (re.compile(rf"^\s*#\s*include\s*[<\"]((?:[^>\"]*/)?{X86_HEADER})[>\"]", re.M), X86_INCLUDE_MESSAGE),
    (re.compile(r"\b(_mm\d*_\w+|_m_\w+|__rdtscp?|_rdtsc|_rd(?:rand|seed)\d+_step|__cpuid\w*|_xbegin|_xend|_xabort|"
                r"_xtest)\b"),
     "uses the x86 intrinsic {0}: not an AI-core instruction, and invisible to the cost model; " + _RULE),
    (re.compile(r"^\s*#\s*pragma\s+(GCC\s+target)\b", re.M),
     "uses #pragma {0}: device code is compiled for the AI core only, not for another instruction set"),
    (re.compile(r"\b(__target__|target|__target_clones__|target_clones)\s*\(\s*\""),
     "uses the attribute {0}(...): device code is compiled for the AI core only, not for another instruction set"),
    # Objects are made and unmade by declaration only. A placement new, an explicit destructor
    # call or the library's construct/destroy helpers run an emulator class's constructor or
    # destructor on any address the kernel names, and the AI core has no heap to `new` from.
    (re.compile(r"\b(new)\b"),
     "uses {0}: device code has no heap, and a placement new builds an object at any address the kernel names; "
     "declare objects (or use a TBuf / TQue for buffers)"),
    (re.compile(r"((?:->|\.)\s*(?:\w+\s*::\s*)*~\s*\w+)"),
     "calls a destructor explicitly ({0}): device code ends an object's life by leaving its scope only"),
    (re.compile(r"\b(construct_at|destroy_at|destroy_n|uninitialized_\w+|allocator_traits|pmr)\b"),
     "uses {0}: the standard library's object construction and destruction helpers act on any address; device "
     "code declares its objects"),
    (re.compile(r"((?:\bstd\s*::\s*|(?:->|\.)\s*)(?:construct|destroy)(?=\s*\()|\bstd\s*::\s*allocator\b)"),
     "uses {0}: the standard library's object construction and destruction helpers act on any address; device "
     "code declares its objects"),
]

#: (c) Routines the compiler emits for ordinary C++ (unwinding through a cleanup, function-local
#: static guards, pure virtual slots, a polymorphic class's deleting destructor, typeinfo of a
#: polymorphic class), plus assert() and console output (g++ turns some printf calls into puts or
#: putchar; printf itself goes to the runtime's wrapper, which refuses a ``%n`` store).
COMPILER_SUPPORT = frozenset({
    "_Unwind_Resume", "__gxx_personality_v0", "__cxa_pure_virtual", "__cxa_deleted_virtual",
    "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_guard_abort", "__cxa_call_terminate",
    "_ZSt9terminatev", "__stack_chk_fail", "_ZdlPv", "_ZdlPvm",
    "_ZTVN10__cxxabiv117__class_type_infoE", "_ZTVN10__cxxabiv120__si_class_type_infoE",
    "_ZTVN10__cxxabiv121__vmi_class_type_infoE", "__assert_fail", "puts", "putchar",
})
#: libgcc's arithmetic helpers (128-bit division, popcount without POPCNT, half-precision
#: conversions, complex multiplication): __<op><mode>[234], __fix*/__float*.
_LIBGCC = re.compile(r"__(?:[a-z]+(?:qi|hi|si|di|ti|sf|df|xf|tf|hf|bf|sc|dc|xc|tc)[234]|"
                     r"(?:fix|fixuns|float|floatun)(?:sf|df|xf|tf|hf|bf|si|di|ti){2})")
#: The standard library's names (std::, __gnu_cxx::, the C++ ABI; their vtables and typeinfo),
#: and all names the implementation reserves (also glibc's inline helpers, __gthread_*): such a
#: function is checked when the kernel's own code reaches it, not merely because the emulator's
#: code instantiated it.
_STDLIB = re.compile(r"_Z(?:T[VIS])?(?:L|N[rVKRO]*|ZN[rVKRO]*|Z)?(?:St|S[a-z]|9__gnu_cxx|10__cxxabiv1)")
_RESERVED = re.compile(rf"{_STDLIB.pattern}|_Z(?:L|N[rVKRO]*|ZN[rVKRO]*|Z)?\d+_[_A-Z]|(?!_Z)_[_A-Z]")
#: What the charged wrappers of ascend_sim/scalar_math.h are called in the runtime object.
WRAPPER_PREFIX = "ascend_sim_kernel_"
_COVERAGE = "__sanitizer_cov_trace_pc"
MAX_FINDINGS = 10


@dataclass(frozen=True, slots=True)
class RuntimeExports:
    """What the emulator's runtime object offers kernel code: the symbols it defines (AscendC
    API, instrumentation call-backs, charged wrappers) and the renames that route the kernel's
    calls of C library routines to their charged wrappers (``memcpy`` → ``ascend_sim_kernel_memcpy``)."""

    symbols: frozenset[str]
    renames: dict[str, str]
    #: What the runtime object itself calls or reads from elsewhere (its undefined symbols).
    references: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=8)
def _exports(path: str, mtime_ns: int) -> RuntimeExports:
    obj = elf_object.read(Path(path))
    names = {s.name for s in obj.symbols if s.defined and s.bind != elf_object.STB_LOCAL} if obj else set()
    own = frozenset(n for n in names if not _STDLIB.match(n))  # not the standard library's instantiations
    renames = {n[len(WRAPPER_PREFIX):]: n for n in sorted(own) if n.startswith(WRAPPER_PREFIX)}
    refs = frozenset(s.name for s in obj.symbols if not s.defined and s.name) if obj else frozenset()
    return RuntimeExports(own, renames, refs)


def runtime_functions(runtime_object: Path) -> frozenset[str]:
    """The functions the runtime object defines, inline and template instantiations included, and
    the signatures of its COMDAT groups (``nm`` types T, W, i and n). A kernel object defining one
    of them keeps its copy to itself (cpu_sim renames it before the link): otherwise the linker
    keeps one copy for both, and either the emulator runs the kernel's code inside its own
    uncharged calls (a kernel's explicit specialisation of ``std::unique_lock<std::mutex>::unlock``
    replaced the emulator's) or the kernel's calls are charged to nobody."""
    return _functions(str(runtime_object), runtime_object.stat().st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _functions(path: str, mtime_ns: int) -> frozenset[str]:
    try:
        listed = subprocess.run(["nm", "-P", "--defined-only", path], capture_output=True, text=True,
                                check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise ToolchainUnavailableError(f"cannot list the symbols of the emulator's runtime ({e}): cpu-sim needs "
                                        "binutils' nm") from e
    return frozenset(parts[0] for parts in (line.split() for line in listed.splitlines())
                     if len(parts) >= 2 and parts[1] in ("T", "W", "i", "n"))


#: The shared libraries every cpu-sim program loads.
SYSTEM_LIBRARIES = ("libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1")


@functools.lru_cache(maxsize=1)
def system_symbols() -> frozenset[str]:
    """Every symbol the system libraries export (``nm -D``). A kernel object that defined one would
    replace it for the whole program — the emulator's own calls included, which run inside an API
    call and are not charged — so such a definition is refused (:func:`_interposed`)."""
    from bench_runner.ascend_sim import build  # the compiler that links the program

    names: set[str] = set()
    for lib in SYSTEM_LIBRARIES:
        try:
            path = subprocess.run([build.CXX, f"-print-file-name={lib}"], capture_output=True, text=True,
                                  check=True, timeout=30).stdout.strip()
            listed = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True,
                                    check=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError) as e:
            raise ToolchainUnavailableError(f"cannot list the symbols of {lib} ({e}): the device-code check needs "
                                            "binutils' nm") from e
        names.update(line.split()[-1].split("@", 1)[0] for line in listed.splitlines() if line.strip())
    return frozenset(names)


def _interposed(obj: elf_object.ElfObject, exports: RuntimeExports, source: str, file: str) -> list[Diagnostic]:
    """Definitions in the kernel's object that would replace a routine of the system libraries or
    one the emulator's runtime calls (``pthread_rwlock_rdlock``, ``malloc``): the emulator would
    then run the kernel's code inside its own, uncharged calls. A C++ inline or template
    instantiation (a weak ``_Z`` symbol) is the library's own code and stays allowed."""
    taken = system_symbols() | exports.references
    found: list[Diagnostic] = []
    for s in obj.symbols:
        if not s.defined or s.bind == elf_object.STB_LOCAL or s.name not in taken:
            continue
        if s.name.startswith("_Z") and s.bind == elf_object.STB_WEAK:
            continue
        message = (f"the kernel defines {plain_name(s.name)}, a routine of the C or C++ library that the emulator "
                   "itself calls: the definition would replace the library's for the whole program. Give it "
                   "another name (or make it static)")
        found.append(Diagnostic(Category.DEVICE_CODE, message, file, _line_of([s.name], source), None, "compile"))
        if len(found) >= MAX_FINDINGS:
            break
    return found


def runtime_exports(runtime_object: Path) -> RuntimeExports:
    """The runtime object's exports (read once per file version)."""
    return _exports(str(runtime_object), runtime_object.stat().st_mtime_ns)


#: Extra flags for the kernel's compile: one section per function, so that every call between
#: two functions is a relocation the object check can follow (within one section the assembler
#: resolves a call to a local function without one). Placement only: the code is the same.
KERNEL_COMPILE_FLAGS = ("-ffunction-sections",)


def rename_argv(kernel_object: Path, runtime_object: Path) -> list[str]:
    """``objcopy`` renaming the kernel object's references to the C routines the runtime charges
    (``expf`` → ``ascend_sim_kernel_expf``): run between the kernel's compile and the link, in
    the same sandbox, before check_object reads the object."""
    tool = shutil.which("objcopy")
    if tool is None:
        raise ToolchainUnavailableError("cpu-sim needs objcopy (binutils, installed with g++) to link kernels")
    argv = [tool]
    for old, new in runtime_exports(runtime_object).renames.items():
        argv += ["--redefine-sym", f"{old}={new}"]
    return [*argv, str(kernel_object)]


def allowed(name: str, exports: RuntimeExports) -> bool:
    """Whether kernel code may refer to the undefined symbol ``name`` (rules (a)–(c))."""
    return name in exports.symbols or name in COMPILER_SUPPORT or _LIBGCC.fullmatch(name) is not None


# ---------------------------------------------------------------------------------------------
# The object check


class _Graph:
    """Who refers to what in one object: nodes are defined functions and data objects."""

    def __init__(self, obj: elf_object.ElfObject) -> None:
        spans: dict[int, list[tuple[int, int, int]]] = {}
        self.canon: dict[int, int] = {}
        first: dict[tuple[int, int], int] = {}
        for i, s in enumerate(obj.symbols):
            if s.in_section and s.type in (elf_object.STT_FUNC, elf_object.STT_OBJECT):
                node = first.setdefault((s.section, s.value), i)
                self.canon[i] = node
                if node == i:
                    spans.setdefault(s.section, []).append((s.value, s.value + max(s.size, 1), i))
        self.spans = spans
        self.refs: dict[int, set[int]] = {}
        for r in obj.relocations:
            owner = self._owner(r.section, r.offset)
            if owner is None:
                continue
            target_sym = obj.symbols[r.symbol]
            if target_sym.type == elf_object.STT_SECTION:
                target = self._owner(target_sym.section, r.addend + (4 if r.pc_relative else 0))
            else:
                target = self.canon.get(r.symbol, r.symbol)
            if target is not None:
                self.refs.setdefault(owner, set()).add(target)
        coverage = {i for i, s in enumerate(obj.symbols) if s.name == _COVERAGE}
        # A function's split-off parts (.cold, .isra.0, .part.1) count as the function.
        marked = {_base(obj.symbols[n].name) for n, ts in self.refs.items() if ts & coverage}
        self.instrumented = {n for n in set(self.canon.values()) if _base(obj.symbols[n].name) in marked}

    def _owner(self, section: int, offset: int) -> int | None:
        for lo, hi, i in self.spans.get(section, ()):
            if lo <= offset < hi:
                return i
        return None


def _base(name: str) -> str:
    return name.split(".", 1)[0] or name


def check_object(kernel_object: Path, runtime_object: Path | None, source: str, *,
                 entries: Collection[str] | None = None, file: str = "kernel.cpp",
                 passes: Collection[str] = ()) -> list[Diagnostic]:
    """Undefined symbols the kernel's own code reaches outside the allow-list, one diagnostic each,
    then the kernel's definitions that would replace a library routine (:func:`_interposed`).

    The kernel's own code is every instrumented function whose name is not reserved for the
    implementation (the emulator's functions are not instrumented: ASCEND_SIM_NOINSTR), and
    whatever instrumented function or data object it refers to, transitively: a standard-library
    template the kernel calls is the kernel's code, the one only the emulator calls is not. With
    ``entries`` (a file holding host code as well: a single-file sample's main()), only the
    functions of those names start the walk. An object without instrumentation (the header-only
    fallback build) is not checked: nothing in it is charged either. ``source`` (the text of
    ``file``) only locates the line. ``passes``: the entries of the kernel's other compile passes
    (a kernel compiled once per core type), which its dispatcher calls.
    """
    obj = elf_object.read(kernel_object)
    if obj is None:
        return [Diagnostic(Category.DEVICE_CODE, "the kernel's object file could not be read to check what it "
                           "calls", file, None, None, "compile")]
    if runtime_object is None or not any(s.name == _COVERAGE for s in obj.symbols):
        return []
    exports = runtime_exports(runtime_object)
    graph = _Graph(obj)
    syms = obj.symbols
    roots = [n for n in graph.instrumented if syms[n].type == elf_object.STT_FUNC
             and not _RESERVED.match(syms[n].name)
             and (entries is None or plain_name(syms[n].name).rsplit("::", 1)[-1].split("<", 1)[0] in entries)]
    parent: dict[int, int | None] = {n: None for n in sorted(roots)}
    queue = deque(parent)
    found: dict[str, list[int]] = {}
    while queue and len(found) < MAX_FINDINGS:
        node = queue.popleft()
        for t in sorted(graph.refs.get(node, ())):
            target = syms[t]
            if not target.defined:
                if target.name not in found and target.name not in passes and not allowed(target.name, exports):
                    found[target.name] = _path(parent, node)
            elif t not in parent and (t in graph.instrumented or target.type == elf_object.STT_OBJECT):
                parent[t] = node
                queue.append(t)
    return ([_diagnostic(name, [syms[n].name for n in path], source, file) for name, path in sorted(found.items())]
            + _interposed(obj, exports, source, file))


def _path(parent: dict[int, int | None], node: int) -> list[int]:
    out = [node]
    while (up := parent[out[-1]]) is not None and len(out) < 16:
        out.append(up)
    return out[::-1]


def _diagnostic(symbol: str, path: list[str], source: str, file: str) -> Diagnostic:
    chain = " → ".join(plain_name(n) for n in path)
    message = (f"{chain} calls {plain_name(symbol)}, which is not on the device-code allow-list: a kernel may "
               "call only the AscendC API, the scalar math the emulator charges (sqrt, exp, log, sin, tanh, erf, "
               "pow … docs/ascend_sim.md, \"Device code is device code\") and what the compiler itself emits; "
               "host C library and other routines would run outside the cost model")
    return Diagnostic(Category.DEVICE_CODE, message, file, _line_of([symbol, *reversed(path)], source), None,
                      "compile")


_ENTRY = re.compile(r"\b(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+(?:inline\s+)?void\s+(\w+)\s*\(")


def kernel_entries(source: str) -> set[str]:
    """The kernel functions (``__global__ __aicore__ void name(``) a source file defines."""
    return set(_ENTRY.findall(source))


def _line_of(names: list[str], source: str) -> int | None:
    """The first line of ``source`` naming one of ``names`` (tried in order), else None."""
    from bench_runner.static_check import strip_comments_and_strings

    clean = strip_comments_and_strings(source)
    for name in names:
        word = plain_name(name).rsplit("::", 1)[-1].split("<", 1)[0].lstrip("~")
        if not word or not re.fullmatch(r"\w+", word):
            continue
        m = re.search(rf"\b{re.escape(word)}\b", clean)
        if m:
            return clean.count("\n", 0, m.start()) + 1
    return None


_BUILTIN_TYPES = set("vwbcahstijlmxynofdegz")


def plain_name(symbol: str) -> str:
    """A readable name for a (possibly mangled) symbol: the nested name without parameters
    (``_ZNSt11char_traitsIwE4copyEPwPKwm`` → ``std::char_traits<…>::copy``); the symbol itself
    when it is not mangled or not understood. Enough to name a function in a message."""
    base = _base(symbol)
    if not base.startswith("_Z"):
        return base
    s, i, parts = base, 2, []
    if s[i:i + 1] in ("L", "Z"):
        i += 1
    nested = s[i:i + 1] == "N"
    if nested:
        i += 1
        while s[i:i + 1] in ("r", "V", "K", "R", "O"):
            i += 1
    while i < len(s):
        if s.startswith("St", i):
            parts.append("std")
            i += 2
        elif s[i].isdigit():
            j = i
            while j < len(s) and s[j].isdigit():
                j += 1
            n = int(s[i:j])
            parts.append(s[j:j + n])
            i = j + n
            if not nested:
                break
        elif s[i] == "I" and parts:
            end = _skip_template_args(s, i)
            if end is None:
                break
            parts[-1] += "<…>"
            i = end
            if not nested:
                break
        elif s[i] == "C" and s[i + 1:i + 2] in ("1", "2", "3") and parts:
            parts.append(parts[-1].split("<", 1)[0])
            break
        elif s[i] == "D" and s[i + 1:i + 2] in ("0", "1", "2") and parts:
            parts.append("~" + parts[-1].split("<", 1)[0])
            break
        else:
            break
    return "::".join(parts) if parts else symbol[:200]


def _skip_template_args(s: str, i: int) -> int | None:
    """The index after the template-argument list that starts at ``s[i] == 'I'`` (a rough
    reader: names, nesting, literals), None if it does not end."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c.isdigit():
            j = i
            while j < len(s) and s[j].isdigit():
                j += 1
            i = j + int(s[i:j])
            continue
        if c == "L" and s[i + 1:i + 2] in _BUILTIN_TYPES:  # literal: L <type> <number> E
            j = i + 2
            while j < len(s) and s[j] != "E":
                j += 1
            i = j + 1
            continue
        if c in "INXJF":
            depth += 1
        elif c == "E":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None
