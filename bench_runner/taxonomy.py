"""The error taxonomy: turn compiler, linker, emulator and sandbox output into counted categories.

Every failure carries diagnostics, each with a stable category code (``Category``), a message
and, where one exists, the location in the submitted file. Category codes are part of the
result schema: add new ones, never rename or reuse one. Text no rule recognises becomes
``other``, so the unclassified share can be tracked and the rules improved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class Category(StrEnum):
    API_MISMATCH = "api_mismatch"
    DTYPE_CONVERSION = "dtype_conversion"
    UNDECLARED = "undeclared"
    SYNTAX = "syntax"
    TEMPLATE_DEDUCTION = "template_deduction"
    TILING_HOST = "tiling_host"
    INCLUDE_LINK = "include_link"
    UB_CAPACITY = "ub_capacity"
    ALIGNMENT = "alignment"
    QUEUE_SYNC = "queue_sync"
    GM_OOB = "gm_oob"
    LOCAL_OOB = "local_oob"
    API_PARAM = "api_param"
    UNINIT_READ = "uninit_read"
    CRASH = "crash"
    RESOURCE_LIMIT = "resource_limit"
    NUMERICAL_MISMATCH = "numerical_mismatch"
    NAN_INF = "nan_inf"
    #: Most failing elements still hold the poison written before the launch.
    UNWRITTEN_OUTPUT = "unwritten_output"
    INPUT_MUTATION = "input_mutation"
    TIMEOUT = "timeout"
    SANDBOX_VIOLATION = "sandbox_violation"
    INFRASTRUCTURE = "infrastructure"
    #: The model's answer had no kernel in the format its prompt demands (see trainer.generate).
    FORMAT = "format"
    #: Code an AI core cannot run: host libc/POSIX, heap, STL containers, exceptions, RTTI, TLS.
    DEVICE_CODE = "device_code"
    #: Output bytes changed outside every modelled write: the result cannot be timed or ranked.
    UNMODELLED_WRITE = "unmodelled_write"
    OTHER = "other"


#: The `#error` text a generator submits when a completion holds no kernel in the demanded format.
FORMAT_MARK = "akgen-format"

TITLES: dict[Category, str] = {
    Category.API_MISMATCH: "API signature or overload mismatch",
    Category.DTYPE_CONVERSION: "dtype / conversion",
    Category.UNDECLARED: "undeclared identifier or non-existent API",
    Category.SYNTAX: "syntax",
    Category.TEMPLATE_DEDUCTION: "template / type deduction",
    Category.TILING_HOST: "tiling or host interface",
    Category.INCLUDE_LINK: "missing include or link",
    Category.UB_CAPACITY: "on-chip buffer capacity (UB, L1, L0)",
    Category.ALIGNMENT: "alignment",
    Category.QUEUE_SYNC: "queue misuse or deadlock",
    Category.GM_OOB: "global-memory out of bounds",
    Category.LOCAL_OOB: "local-memory out of bounds",
    Category.API_PARAM: "invalid API parameter at run time",
    Category.UNINIT_READ: "read of never-written local memory",
    Category.CRASH: "crash",
    Category.RESOURCE_LIMIT: "memory, output or process limit",
    Category.NUMERICAL_MISMATCH: "numerical mismatch",
    Category.NAN_INF: "NaN/Inf",
    Category.UNWRITTEN_OUTPUT: "output never written",
    Category.INPUT_MUTATION: "input modified",
    Category.TIMEOUT: "timeout",
    Category.SANDBOX_VIOLATION: "sandbox violation",
    Category.INFRASTRUCTURE: "infrastructure error",
    Category.FORMAT: "answer not in the required format",
    Category.DEVICE_CODE: "host-only code in a kernel (libc, heap, STL, exceptions)",
    Category.UNMODELLED_WRITE: "output written outside the cost model",
    Category.OTHER: "other (unclassified)",
}

def title_of(category: str) -> str:
    """A failure category's label as people read it (``dtype_conversion`` → "dtype / conversion");
    an unknown code is shown as words."""
    try:
        return TITLES[Category(category)]
    except ValueError:
        return (category or "unclassified").replace("_", " ")


#: The emulator's finding codes (ascend_sim contract) and what they mean here.
FINDING_CATEGORIES: dict[str, Category] = {
    "UB_OVERFLOW": Category.UB_CAPACITY,
    "BUF_OVERFLOW": Category.UB_CAPACITY,  # L1 / L0A / L0B / L0C / bias table of the cube unit
    "QUE_DEPTH": Category.QUEUE_SYNC,
    "QUE_ORDER": Category.QUEUE_SYNC,
    "USE_AFTER_FREE": Category.QUEUE_SYNC,
    "DEADLOCK": Category.QUEUE_SYNC,
    "GM_OOB": Category.GM_OOB,
    "LOCAL_OOB": Category.LOCAL_OOB,
    "COPY_ALIGN": Category.ALIGNMENT,
    "ADDR_ALIGN": Category.ALIGNMENT,
    "UNINIT_READ": Category.UNINIT_READ,
    "BAD_PARAM": Category.API_PARAM,
    "CRASH": Category.CRASH,
    "SIM_TIMEOUT": Category.TIMEOUT,
    # Beyond the contract's list, emitted by the emulator too:
    "UNSUPPORTED": Category.UNDECLARED,  # an API the chosen SoC does not have (DataCopyPad on 310P)
    "SYNC_MISMATCH": Category.QUEUE_SYNC,  # SetFlag/WaitFlag left unpaired at kernel end
    "UNMODELLED_WRITE": Category.UNMODELLED_WRITE,  # GM bytes changed without a modelled write
    # An access by the kernel's own code outside its stack, host-allocated GM and its local memory
    "STRAY_ACCESS": Category.GM_OOB,
    # A write past a GM buffer's end into its last 32-byte block's padding (a warning)
    "GM_PAD_WRITE": Category.GM_OOB,
    # An integer division by zero in the kernel's code: x86 traps, the NPU does not (a warning)
    "INT_DIV_ZERO": Category.CRASH,
    # Runs on the NPU, but CANN's CPU-debug build would assert (a warning): Select's dtypes
    "CPU_DEBUG_ASSERT": Category.DTYPE_CONVERSION,
}


@dataclass(slots=True)
class Diagnostic:
    category: Category
    message: str
    #: The submitted file ("kernel.cpp" or "host.cpp") when the location is in it, else None.
    file: str | None = None
    line: int | None = None
    column: int | None = None
    #: compiler | linker | emulator | harness | sandbox | verifier | static_check | evaluator
    source: str = "compiler"
    severity: str = "error"
    #: The emulator's finding code, when there is one.
    code: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["category"] = str(self.category)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Diagnostic:
        """Read back what ``to_dict`` wrote, tolerating missing keys and other producers.

        A category this version does not know becomes ``other`` (codes are only ever added);
        a missing severity is ``error``, as in the constructor. Raises TypeError for a non-mapping.
        """
        if not isinstance(d, Mapping):
            raise TypeError(f"a diagnostic must be a mapping, got {type(d).__name__}")
        try:
            category = Category(d.get("category"))
        except ValueError:
            category = Category.OTHER

        def text(key: str) -> str | None:
            value = d.get(key)
            return value if isinstance(value, str) else None

        def integer(key: str) -> int | None:
            value = d.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        notes = d.get("notes")
        return cls(category, text("message") or "", text("file"), integer("line"), integer("column"),
                   source=text("source") or "compiler", severity=text("severity") or "error", code=text("code"),
                   notes=[str(n) for n in notes] if isinstance(notes, list | tuple) else [])


# ---------------------------------------------------------------------------------------------
# g++ / ld output

_DIAG = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? "
                   r"(?P<kind>fatal error|error|warning|note): (?P<msg>.*)$")
_FILE_ONLY_DIAG = re.compile(r"^(?P<file>[^\s:][^:]*): (?P<kind>fatal error|error): (?P<msg>.*)$")
_REQUIRED = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+):\s+(?:recursively )?required (?:from|by).*$")
_INCLUDED = re.compile(r"^(?:In file included|\s+) from (?P<file>[^:]+):(?P<line>\d+)[:,]$")
_CONTEXT = re.compile(r"^(?P<file>[^\s:][^:]*): (?:In |At ).*:?$")
_UNDEF = re.compile(r"undefined reference to [`'‘\"](?P<sym>[^'’`\"]+)['’`\"]")
_MULTIDEF = re.compile(r"multiple definition of [`'‘\"](?P<sym>[^'’`\"]+)['’`\"]")
_LD_LOC = re.compile(r"^(?:/\S*/)?(?:ld|collect2)(?:\.\w+)?: (?:(?P<file>[^:\s]+\.(?:cpp|cc|h|o)):(?:(?P<line>\d+):)?)?")

_SYNTAX = re.compile(
    r"expected (?:primary-expression|unqualified-id|declaration|initializer|identifier|"
    r"type-specifier|nested-name-specifier|class-name|[`'‘][^'’]+['’])"
    r"|stray '.*' in program|missing terminating|unterminated|expected '}' at end of input"
    r"|expected ';'|extra qualification|two or more data types|invalid preprocessing directive"
    r"|#endif without #if|unterminated #|#else without #if|empty character constant"
)
_UNDECLARED = re.compile(
    r"was not declared in this scope|is not a member of|has no member named|does not name a type"
    r"|has not been declared|no type named|is not a namespace|undeclared identifier"
    r"|not declared|is not a class, namespace, or enumeration|no member named|is not a type"
    r"|does not name a template"
)
_TEMPLATE = re.compile(
    r"template argument deduction/substitution failed|couldn't deduce template parameter"
    r"|deduced conflicting (?:types|values)|wrong number of template arguments"
    r"|template argument \d+ is invalid|missing template argument|is not a template"
    r"|parse error in template argument list|invalid template|template parameter"
    r"|type/value mismatch at argument|mismatched types"
)
_CONVERSION = re.compile(
    r"cannot convert|invalid conversion|narrowing conversion|no known conversion|invalid cast"
    r"|invalid static_cast|invalid use of incomplete type|cannot bind|conversion from .* to non-scalar"
    r"|no viable conversion|invalid operands|Failed to check dtype|unsupported dtype|not support(?:ed)? (?:the )?dtype"
)
_API = re.compile(
    r"no matching function for call|no matching member function|call of overloaded .* is ambiguous"
    r"|too many arguments|too few arguments|no match for call|no matching constructor"
    r"|candidate expects|invalid use of|is private within this context|is protected within this context"
    r"|cannot be used as a function|passing .* discards qualifiers|no match for 'operator"
    r"|deleted function"
)
_ELEMENT_TYPES = re.compile(r"\b(?:half|float|double|bfloat16_t|float16_t|bool|u?int(?:8|16|32|64)_t|"
                            r"(?:unsigned |signed )?(?:char|short|int|long)|__bf16|_Float16)\b")
_FROM_TO = re.compile(r"from '([^']+)' to '([^']+)'")


@dataclass(slots=True)
class _Group:
    file: str
    line: int | None
    col: int | None
    msg: str
    kind: str
    context: list[tuple[str, int | None, int | None, str]]
    notes: list[tuple[str, int | None, int | None, str]] = field(default_factory=list)


def parse_compile_log(log: str, *, user_files: Mapping[str, str], generated: Iterable[str] = (),
                      entry: str | None = None, max_diagnostics: int = 50) -> list[Diagnostic]:
    """Group g++/ld output into one diagnostic per error, each classified and located.

    ``user_files`` maps file names as they appear in the log to the names shown to users
    (the submitted files); ``generated`` names evaluator-made files, whose errors mean the
    submission does not fit the task's interface.
    """
    generated = set(generated)
    # g++ uses typographic quotes in UTF-8 locales; the rules are written for ASCII ones.
    log = log.replace("\u2018", "'").replace("\u2019", "'")
    groups: list[_Group] = []
    pending: list[tuple[str, int | None, int | None, str]] = []
    current: _Group | None = None
    linker: list[Diagnostic] = []
    for raw in log.splitlines():
        line = raw.rstrip()
        m = _DIAG.match(line)
        if m:
            loc = (m["file"], int(m["line"]), int(m["col"]) if m["col"] else None, m["msg"])
            if m["kind"] == "note":
                if current is not None:
                    current.notes.append(loc)
                continue
            if m["kind"] == "warning":
                current = None
                pending = []
                continue
            current = _Group(loc[0], loc[1], loc[2], loc[3], m["kind"], pending)
            groups.append(current)
            pending = []
            continue
        if _UNDEF.search(line) or _MULTIDEF.search(line):
            linker.append(_link_diagnostic(line, user_files, entry))
            current = None
            continue
        m = _FILE_ONLY_DIAG.match(line)
        if m and not line.startswith("collect2"):
            current = _Group(m["file"], None, None, m["msg"], m["kind"], pending)
            groups.append(current)
            pending = []
            continue
        m = _REQUIRED.match(line)
        if m:
            pending.append((m["file"], int(m["line"]), int(m["col"]), "required from"))
            continue
        m = _INCLUDED.match(line)
        if m:
            pending.append((m["file"].strip(), int(m["line"]), None, "included from"))
            continue
        m = _CONTEXT.match(line)
        if m and not line.startswith(" "):
            pending.append((m["file"], None, None, "context"))
    diags = [_classify_group(g, user_files, generated, entry) for g in groups]
    diags += linker
    return diags[:max_diagnostics]


def _locate(g: _Group, user_files: Mapping[str, str]) -> tuple[str | None, int | None, int | None]:
    if g.file in user_files:
        return user_files[g.file], g.line, g.col
    # Instantiation and include chains name the user's line that led into a header.
    for f, ln, col, _ in reversed(g.context):
        if f in user_files and ln is not None:
            return user_files[f], ln, col
    for f, ln, col, _ in g.notes:
        if f in user_files and ln is not None:
            return user_files[f], ln, col
    return None, None, None


def _classify_group(g: _Group, user_files: Mapping[str, str], generated: set[str], entry: str | None) -> Diagnostic:
    file, line, col = _locate(g, user_files)
    notes_text = [n[3] for n in g.notes]
    category = classify_compile_message(g.msg, notes_text)
    if g.file in generated and category not in (Category.SYNTAX, Category.INCLUDE_LINK):
        # The evaluator's own wrapper failed to fit the submission: the kernel's entry point or
        # the host's tiling function does not match the task's interface.
        category = Category.TILING_HOST
    if entry and category is Category.UNDECLARED and re.search(rf"['‘]{re.escape(entry)}['’]", g.msg) \
            and g.file in generated:
        category = Category.TILING_HOST
    message = g.msg if g.kind != "fatal error" else f"fatal error: {g.msg}"
    return Diagnostic(category, message, file, line, col, "compiler", "error", None, notes_text[:8])


def classify_compile_message(message: str, notes: Sequence[str] = ()) -> Category:
    """Category of one compiler error from its text and its notes (first matching rule wins)."""
    msg = message
    if FORMAT_MARK in msg:  # the generator's stand-in for an answer with no kernel in it
        return Category.FORMAT
    if "attempt to use poisoned" in msg:  # ascend_sim/device_code.h: a host-only name in device code
        return Category.DEVICE_CODE
    if re.search(r"No such file or directory|cannot find -l|file not found", msg):
        return Category.INCLUDE_LINK
    if "static assertion failed" in msg or "static_assert" in msg:
        return _classify_static_assert(msg)
    if re.search(r"Failed to check dtype|unsupported dtype|not support(?:ed)? (?:the )?dtype", msg):
        return Category.DTYPE_CONVERSION
    if re.search(r"no matching (?:function|member function|constructor) for call|no match for call", msg):
        return _classify_no_match(notes)
    if _SYNTAX.search(msg):
        return Category.SYNTAX
    if _UNDECLARED.search(msg):
        return Category.UNDECLARED
    if _TEMPLATE.search(msg):
        return Category.TEMPLATE_DEDUCTION
    if _CONVERSION.search(msg):
        return _classify_conversion(msg)
    if _API.search(msg):
        return Category.API_MISMATCH
    if re.search(r"redefinition|conflicting declaration|previous declaration|redeclared", msg):
        return Category.API_MISMATCH
    return Category.OTHER


def _classify_static_assert(msg: str) -> Category:
    low = msg.lower()
    if "align" in low:
        return Category.ALIGNMENT
    if re.search(r"\bub\b|unified buffer|capacity|exceed", low):
        return Category.UB_CAPACITY
    if re.search(r"dtype|data type|element type|same type|type combination|support.*type|float|half", low):
        return Category.DTYPE_CONVERSION
    if re.search(r"queue|que\b|tque|tbuf|position|depth", low):
        return Category.QUEUE_SYNC
    if re.search(r"tiling", low):
        return Category.TILING_HOST
    return Category.API_MISMATCH


def _classify_no_match(notes: Sequence[str]) -> Category:
    text = "\n".join(notes)
    if "couldn't deduce template parameter" in text:
        return Category.TEMPLATE_DEDUCTION
    if re.search(r"candidate expects \d+ arguments?, \d+ provided", text):
        return Category.API_MISMATCH
    for src, dst in _FROM_TO.findall(text):
        if _only_element_types_differ(src, dst):
            return Category.DTYPE_CONVERSION
    m = re.search(r"deduced conflicting types for parameter '[^']+' \('([^']+)' and '([^']+)'\)", text)
    if m and _ELEMENT_TYPES.fullmatch(m[1].strip()) and _ELEMENT_TYPES.fullmatch(m[2].strip()):
        return Category.DTYPE_CONVERSION
    if re.search(r"couldn't deduce|deduced conflicting|mismatched types|substitution of", text) \
            and "no known conversion" not in text:
        return Category.TEMPLATE_DEDUCTION
    return Category.API_MISMATCH


def _classify_conversion(msg: str) -> Category:
    for src, dst in _FROM_TO.findall(msg):
        if not _only_element_types_differ(src, dst) and ("Tensor" in src or "Tensor" in dst):
            return Category.API_MISMATCH
    return Category.DTYPE_CONVERSION


def _only_element_types_differ(src: str, dst: str) -> bool:
    def norm(t: str) -> str:
        t = re.sub(r"\b(?:const|volatile)\b|[&*]|\s+", " ", t)
        return " ".join(_ELEMENT_TYPES.sub("T", t).split())
    return src != dst and norm(src) == norm(dst) and bool(_ELEMENT_TYPES.search(src))


def _link_diagnostic(line: str, user_files: Mapping[str, str], entry: str | None) -> Diagnostic:
    m = _UNDEF.search(line) or _MULTIDEF.search(line)
    assert m is not None
    sym = m["sym"]
    loc = _LD_LOC.match(line)
    file = line_no = None
    if loc and loc["file"] in user_files:
        file = user_files[loc["file"]]
        line_no = int(loc["line"]) if loc["line"] else None
    interface = {"optiling::TilingFunc", "TilingFunc"} | ({entry} if entry else set())
    bare = sym.split("(")[0]
    category = Category.TILING_HOST if bare in interface or bare.endswith("TilingFunc") else Category.INCLUDE_LINK
    kind = "undefined reference to" if "undefined" in line else "multiple definition of"
    return Diagnostic(category, f"{kind} '{sym}'", file, line_no, None, "linker")


# ---------------------------------------------------------------------------------------------
# Emulator findings (report JSON and stderr lines)

_SIM_LINE = re.compile(r"^\[(?P<sev>ERROR|WARNING)\]\[(?P<core>[^\]]*)\]\[(?P<file>[^\]:]*):(?P<line>-?\d+)\]"
                       r"\[(?P<api>[^\]]*)\] (?P<code>[A-Z_]+): (?P<msg>.*)$")


def findings_to_diagnostics(findings: Iterable[Mapping[str, Any]], user_files: Mapping[str, str]) -> list[Diagnostic]:
    """Diagnostics from the emulator report's findings (errors first, duplicates dropped)."""
    out: list[Diagnostic] = []
    seen: set[tuple[str, str | None, int | None]] = set()
    for f in findings:
        code = str(f.get("code", ""))
        file_raw = str(f.get("file") or "")
        file = user_files.get(file_raw) or user_files.get(file_raw.rsplit("/", 1)[-1])
        line = f.get("line") if file else None
        key = (code, file, line if isinstance(line, int) else None)
        if key in seen:
            continue
        seen.add(key)
        sev = "error" if str(f.get("severity", "error")).lower() == "error" else "warning"
        out.append(Diagnostic(FINDING_CATEGORIES.get(code, Category.OTHER), str(f.get("message", ""))[:2000],
                              file, line if isinstance(line, int) and line > 0 else None, None, "emulator",
                              sev, code or None))
    out.sort(key=lambda d: d.severity != "error")
    return out


def parse_emulator_stderr(stderr: str, user_files: Mapping[str, str]) -> list[dict[str, Any]]:
    """Findings from the emulator's stderr lines, for runs that died before writing a report."""
    found = []
    for line in stderr.splitlines():
        m = _SIM_LINE.match(line.strip())
        if m:
            found.append({"severity": m["sev"].lower(), "code": m["code"], "message": m["msg"],
                          "file": m["file"], "line": int(m["line"])})
    return found


def summarize(diagnostics: Sequence[Diagnostic]) -> dict[str, int]:
    """Counts per category of the error diagnostics (what dashboards tally)."""
    counts: dict[str, int] = {}
    for d in diagnostics:
        if d.severity == "error":
            counts[str(d.category)] = counts.get(str(d.category), 0) + 1
    return counts
