"""CANN op projects as submissions: the host side in several files, and what the op build
gives the kernel.

Why: NPUKernelBench and KernelGen-LM write a kernel as a CANN op project — ``op_host/<op>.cpp``
(an ``OpDef`` registered with ``OP_ADD`` and a ``TilingFunc``), ``op_host/<op>_tiling.h`` (a
``BEGIN_TILING_DATA_DEF`` struct) and ``op_kernel/<op>.cpp`` (which reads ``DTYPE_X`` macros and
``GET_TILING_DATA`` without including the tiling header: CANN's op build supplies both). A
submission has one host text, so the host files travel in it as a *bundle*, in the layout
NPUKernelBench's answer parser reads::

    ================== op_host/add_custom_tiling.h ==================
    ```cpp
    ...
    ```
    ================== op_host/add_custom.cpp ==================
    ```cpp
    ...
    ```

(the code fences are optional). A host text without banner lines is one file, as before.

This module owns the rules of that layout and of what the kernel translation unit sees
(:func:`kernel_prelude`); toolchains and the survey (benchmarks/survey_ascendc.py) import them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bench_runner.ascend_sim import member_specialization, source_rewrite
from bench_runner.ascend_sim.build import include_dir

#: At most this many files in one host bundle.
MAX_HOST_FILES = 8

#: Names the evaluator writes into the build directory itself: a bundle may not use them.
RESERVED_NAMES = frozenset({"kernel.cpp", "host.cpp", "host_tu.cpp", "main.cpp", "main.o", "host_tu.o",
                            "kernel.o", "prog"})

_BANNER = re.compile(r"^[ \t]*={3,}[ \t]*(?P<path>[^\s=][^=\n]*?)[ \t]*={3,}[ \t]*$", re.M)
_FENCE_OPEN = re.compile(r"\A[ \t]*```[A-Za-z0-9_+-]*[ \t]*\n")
_FENCE_CLOSE = re.compile(r"\n?[ \t]*```[ \t]*\s*\Z")
_SAFE_NAME = re.compile(r"\A[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\Z")

#: ge::DataType names as OpDefs list them, and the C type the op build defines DTYPE_<NAME> as.
GE_CTYPES: Mapping[str, str] = {
    "DT_FLOAT16": "half", "DT_FLOAT": "float", "DT_BF16": "bfloat16_t", "DT_INT8": "int8_t",
    "DT_UINT8": "uint8_t", "DT_INT16": "int16_t", "DT_UINT16": "uint16_t", "DT_INT32": "int32_t",
    "DT_UINT32": "uint32_t", "DT_INT64": "int64_t", "DT_UINT64": "uint64_t", "DT_BOOL": "bool",
    "DT_DOUBLE": "double",
}
_OPDEF_TENSOR = re.compile(r"\b(Input|Output)\s*\(\s*\"([A-Za-z0-9_]+)\"\s*\)(.*?);", re.S)
_OPDEF_TYPES = re.compile(r"\.DataType(?:List)?\s*\(\s*\{([^}]*)\}")
_OPDEF_TYPES_VAR = re.compile(r"\.DataType(?:List)?\s*\(\s*([A-Za-z_]\w*)\s*\)")
_OPDEF_ATTR = re.compile(r'this->Attr\(\s*"([A-Za-z0-9_]+)"\s*\)(.*?);', re.S)


class BundleError(ValueError):
    """A host bundle that cannot be laid out as files; the message says what to change."""


@dataclass(frozen=True, slots=True)
class HostFiles:
    """The host side as files: ``main`` is compiled (as host.cpp); ``headers`` sit beside it."""

    #: A plain host's text; for a bundle, its .cpp files' texts joined (what the OpDef is read from).
    main: str
    headers: Mapping[str, str] = field(default_factory=dict)
    #: Where each file starts in the submitted text (1-based line of its first code line).
    first_lines: Mapping[str, int] = field(default_factory=dict)
    #: A bundle's .cpp files (name -> text), compiled together as one translation unit; empty
    #: for a plain host.
    sources: Mapping[str, str] = field(default_factory=dict)

    @property
    def tiling_header(self) -> str | None:
        """The header that defines the tiling struct (``BEGIN_TILING_DATA_DEF``), if any."""
        return tiling_header(self.headers)


def is_bundle(text: str | None) -> bool:
    """Whether ``text`` is a multi-file host bundle (has at least one banner line)."""
    return bool(text) and _BANNER.search(text) is not None


@dataclass(frozen=True, slots=True)
class BannerFile:
    path: str  # as the banner names it (op_host/foo.cpp)
    text: str  # the body, without its code fence
    first_line: int  # 1-based line of the body's first line in the whole text


def split_files(text: str) -> list[BannerFile]:
    """The files of a banner-separated text (a host bundle, or a whole NPUKernelBench answer with
    op_host and op_kernel files), in order; [] when it has no banner. Text before the first banner
    is ignored here (split_host refuses it)."""
    banners = list(_BANNER.finditer(text))
    out = []
    for i, m in enumerate(banners):
        end = banners[i + 1].start() if i + 1 < len(banners) else len(text)
        body_start = m.end() + 1 if m.end() < len(text) and text[m.end()] == "\n" else m.end()
        body = text[body_start:end]
        line = text.count("\n", 0, body_start) + 1
        fence = _FENCE_OPEN.match(body)
        if fence:
            body = _FENCE_CLOSE.sub("\n", body[fence.end():])
            line += 1
        out.append(BannerFile(m["path"].strip(), body, line))
    return out


def split_host(text: str) -> HostFiles:
    """The host text as files; raises :class:`BundleError` for a bundle that breaks the rules.

    Rules: every banner names ``op_host/<name>`` or ``<name>`` (letters, digits, ``_ . -``);
    at least one ``.cpp``/``.cc`` file (op_host sources, compiled together as one translation
    unit, in bundle order); the others are headers (``.h``/``.hpp``); no name twice, none of
    :data:`RESERVED_NAMES`, at most :data:`MAX_HOST_FILES` files, and nothing but blank lines
    before the first banner.
    """
    files = split_files(text)
    if not files:
        return HostFiles(main=text)
    first = _BANNER.search(text)
    assert first is not None
    if text[:first.start()].strip():
        line = text[:first.start()].strip().splitlines()[0][:80]
        raise BundleError(f"the host bundle has text before its first file banner ({line!r}); start with "
                          "a line like '================== op_host/<op>.cpp =================='")
    if len(files) > MAX_HOST_FILES:
        raise BundleError(f"the host bundle has {len(files)} files; at most {MAX_HOST_FILES} are accepted")
    sources: dict[str, str] = {}
    headers: dict[str, str] = {}
    first_lines: dict[str, int] = {}
    for f in files:
        path = f.path
        name = path[len("op_host/"):] if path.startswith("op_host/") else path
        if not _SAFE_NAME.match(name) or name in (".", ".."):
            raise BundleError(f"file banner {path!r}: name the file op_host/<name> with letters, digits, "
                              "'_', '.' or '-' (op_kernel files go in the kernel field)")
        if name in RESERVED_NAMES:
            raise BundleError(f"file banner {path!r}: {name} is a name the evaluator uses itself; rename the file")
        if name in headers or name in sources:
            raise BundleError(f"file banner {path!r}: the bundle names {name} twice")
        if name.endswith((".cpp", ".cc")):
            sources[name] = f.text
        elif name.endswith((".h", ".hpp")):
            headers[name] = f.text
        else:
            raise BundleError(f"file banner {path!r}: a host bundle holds one .cpp and headers (.h, .hpp)")
        first_lines[name] = f.first_line
    if not sources:
        raise BundleError("the host bundle needs an op_host .cpp file (it has only headers)")
    return HostFiles(main="\n".join(sources.values()), headers=headers, first_lines=first_lines, sources=sources)


def split_answer(text: str) -> tuple[str, str] | None:
    """(kernel, host bundle) from an answer laid out as NPUKernelBench's answer parser reads it
    (banners for op_host/<op>_tiling.h, op_host/<op>.cpp and op_kernel/<op>.cpp), or None when
    the text has no op_kernel banner. Raises :class:`BundleError` for more than one kernel file
    or a host part that breaks split_host's rules."""
    files = split_files(text)
    kernels = [f for f in files if f.path.startswith("op_kernel/")]
    if not kernels:
        return None
    if len(kernels) != 1:
        raise BundleError(f"the answer has {len(kernels)} op_kernel files; give exactly one op_kernel/<op>.cpp")
    host = make_bundle({f.path[len("op_host/"):] if f.path.startswith("op_host/") else f.path: f.text
                        for f in files if not f.path.startswith("op_kernel/")})
    split_host(host)
    return kernels[0].text, host


def tiling_header(headers: Mapping[str, str]) -> str | None:
    """The first header (by name) that defines a tiling struct with ``BEGIN_TILING_DATA_DEF``."""
    for name in sorted(headers):
        if "BEGIN_TILING_DATA_DEF" in headers[name]:
            return name
    return None


@dataclass(frozen=True, slots=True)
class OpDefTensor:
    kind: str  # "Input" or "Output"
    name: str
    #: The ge::DataType names its OpDef lists, in order: one per dtype combination.
    ge_types: tuple[str, ...]
    #: ``.ParamType(DYNAMIC)``: a tensor list (the kernel gets a list descriptor).
    dynamic: bool = False

    @property
    def ctypes(self) -> tuple[str, ...]:
        """C types of those dtypes (the ones this module knows), in order."""
        return tuple(GE_CTYPES[n] for n in self.ge_types if n in GE_CTYPES)


def opdef_tensors(op_host_text: str) -> list[OpDefTensor]:
    """The inputs and outputs an op_host ``OpDef`` declares (``this->Input("x")...DataType({...})``),
    in declaration order; each name once per kind (an Output named like an Input is CANN's "ref"
    output: the op writes that input in place)."""
    out: list[OpDefTensor] = []
    seen: set[tuple[str, str]] = set()
    for m in _OPDEF_TENSOR.finditer(op_host_text):
        if (m[1], m[2]) in seen:
            continue
        seen.add((m[1], m[2]))
        types_m = _OPDEF_TYPES.search(m[3])
        if types_m is None:  # .DataType(list) naming a vector declared before: `std::vector<ge::DataType> list = {...};`
            var = _OPDEF_TYPES_VAR.search(m[3])
            types_m = re.search(rf"\b{re.escape(var[1])}\s*(?:=\s*)?\{{([^}}]*)\}}", op_host_text) if var else None
        names = [t.strip().split("::")[-1] for t in types_m[1].split(",") if t.strip()] if types_m else []
        dynamic = re.search(r"\.ParamType\s*\(\s*(?:\w+::)?DYNAMIC\s*\)", m[3]) is not None
        out.append(OpDefTensor(m[1], m[2], tuple(names), dynamic))
    return out


def opdef_attrs(op_host_text: str) -> list[tuple[str, str]]:
    """The attributes an ``OpDef`` declares, as (name, kind): kind is ``Int``, ``Float``, ``Bool``,
    ``String``, ``ListInt``… (``?`` when the declaration names none), in declaration order."""
    out = []
    for m in _OPDEF_ATTR.finditer(op_host_text):
        kind = re.search(r"\.(Int|Float|Bool|String|ListInt|ListFloat|ListBool)\s*\(", m[2])
        out.append((m[1], kind[1] if kind else "?"))
    return out


#: ORIG_DTYPE_<NAME> per DTYPE_<NAME>: the ge::DataType name of a C type (GE_CTYPES reversed).
_GE_NAME = {ctype: ge for ge, ctype in GE_CTYPES.items()}


def dtype_macros(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{DTYPE_X: half, ORIG_DTYPE_X: DT_FLOAT16}`` for each (tensor name, C type), as the op build
    defines them for the dtype combination it compiles (a C type it has no DT_ name for is used
    as it is)."""
    out: dict[str, str] = {}
    for name, ctype in pairs:
        out.setdefault(f"DTYPE_{name.upper()}", ctype)
        out.setdefault(f"ORIG_DTYPE_{name.upper()}", _GE_NAME.get(ctype, ctype))
    return out


@lru_cache(maxsize=1)
def ge_dtype_values() -> dict[str, int]:
    """The value of each DT_ name :func:`dtype_macros` uses, read from the emulator's
    ``graph/types.h`` (its one home: ge::DataType as CANN numbers it)."""
    text = (include_dir() / "graph" / "types.h").read_text(encoding="utf-8")
    values = {m[1]: int(m[2]) for m in re.finditer(r"^\s*(DT_\w+)\s*=\s*(\d+)\s*,", text, re.M)}
    return {name: values[name] for name in _GE_NAME.values()}


def ge_dtype_defines() -> list[str]:
    """Kernels compare ORIG_DTYPE_<NAME> with a DT_ name in ``#if`` (``#if ORIG_DTYPE_X ==
    DT_INT32``), so the preprocessor must see the DT_ names as numbers; an undefined name would
    be 0 on both sides and every such test true."""
    return [line for name, value in ge_dtype_values().items()
            for line in (f"#ifndef {name}", f"#define {name} {value}", "#endif")]


def combination_pairs(task_tensors: Sequence[tuple[str, str]], op_host_text: str | None) -> list[tuple[str, str]]:
    """(name, C type) for the DTYPE macros of one build: the task's tensors by their own names,
    and — when the host's OpDef declares as many tensors under other names — by the OpDef's
    names in declaration order too (inputs, then outputs: the kernel's parameter order)."""
    pairs = list(task_tensors)
    if op_host_text:
        declared = opdef_tensors(op_host_text)
        ordered = [t for t in declared if t.kind == "Input"] + [t for t in declared if t.kind == "Output"]
        if len(ordered) == len(task_tensors):
            pairs += [(t.name, ctype) for t, (_, ctype) in zip(ordered, task_tensors, strict=True)]
    return pairs


def includes_header(text: str, header: str) -> bool:
    """Whether ``text`` has an ``#include`` of ``header`` (by its file name, any directory)."""
    return re.search(r'#\s*include\s*[<"]([^">]*/)?' + re.escape(header) + '[">]', text) is not None


def kernel_prelude(macros: Mapping[str, str], header: str | None, kernel_text: str, *,
                   file_name: str = "kernel.cpp", header_text: str | None = None) -> str:
    """What CANN's op build puts in front of an op kernel: the DTYPE macros of the combination
    being built and, when the kernel does not include it itself, the host's tiling header with
    its structs at global scope, as the generated kernel-side structs are. Ends with ``#line 1``
    so diagnostics keep the kernel's own line numbers.

    With ``header_text``, only the structs the header defines in ``namespace optiling`` are
    brought to global scope (``using optiling::Name;``): the op build hands the kernel the tiling
    structs, not the host's other names, so a kernel's own ``MAX_DIM_NUM`` does not clash with the
    header's. Without it, the whole namespace is (``using namespace optiling``)."""
    lines = ["// akgen: what the op build supplies to the kernel (bench_runner/op_project.py)"]
    if any(k.startswith("ORIG_DTYPE_") for k in macros):
        lines += ge_dtype_defines()
    lines += [f"#define {k} {v}" for k, v in macros.items()]
    if header is not None and not includes_header(kernel_text, header):
        lines += [f'#include "{header}"', "namespace optiling {}"]
        if header_text is None:
            lines.append("using namespace optiling;")
        else:
            lines += [f"using optiling::{name};" for name in optiling_structs(header_text)]
            lines.append("#define AKGEN_OPTILING_NAMED 1  // kernel_operator.h: no using-directive")
    if len(lines) == 1:
        return ""
    lines.append(f'#line 1 "{file_name}"')
    return "\n".join(lines) + "\n"


_OPTILING = re.compile(r"\bnamespace\s+optiling\s*\{")
_STRUCT_NAMES = re.compile(r"\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)|\b(?:struct|class)\s+(\w+)\s*(?:final\s*)?[:{]")


def optiling_structs(header_text: str) -> list[str]:
    """The tiling structs (``BEGIN_TILING_DATA_DEF``) and plain structs a tiling header defines
    directly in ``namespace optiling``, in order, each once."""
    code = source_rewrite.code_mask(header_text)
    names: list[str] = []
    for ns in _OPTILING.finditer(code):
        end = member_specialization.matching_brace(code, ns.end() - 1)
        level = 1
        pos = ns.end()
        for m in _STRUCT_NAMES.finditer(code, ns.end(), end):
            level += code.count("{", pos, m.start()) - code.count("}", pos, m.start())
            pos = m.start()
            name = m[1] or m[2]
            if level == 1 and name not in names:
                names.append(name)
    return names


#: An include of CANN's op-API framework (the aclnn two-stage API and its level-0 op wrappers).
_OP_API_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](?:opdev|aclnn|aclnn_kernels|level0|level2)/', re.M)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^">]+)[">]', re.M)


def op_build_files(files: Mapping[str, str]) -> dict[str, str]:
    """The files of an op_host folder that the op's own host build compiles (name -> text).

    CANN builds an answer's op-API layer (``aclnn_<op>.cpp``, its level-0 wrappers: every file
    that includes ``opdev/``, ``aclnn/``, ``aclnn_kernels/``, ``level0/`` or ``level2/``) into a
    separate library, against framework headers akgen does not emulate; akgen's driver calls the
    op's TilingFunc itself, as that layer would. So the layer is left out, with the headers only
    it includes; headers a kept file includes stay."""
    def reach(roots: set[str]) -> set[str]:
        seen, todo = set(roots), list(roots)
        while todo:
            for inc in _INCLUDE.findall(files[todo.pop()]):
                name = inc.rsplit("/", 1)[-1]
                if name in files and name not in seen:
                    seen.add(name)
                    todo.append(name)
        return seen

    layer = {n for n, t in files.items() if _OP_API_INCLUDE.search(t)}
    if not layer:
        return dict(files)
    only_layer = reach(layer)
    kept = reach({n for n in files if n not in layer and (n not in only_layer or n.endswith((".cpp", ".cc")))})
    return {n: t for n, t in files.items() if n in kept and n not in layer}


def make_bundle(files: Mapping[str, str]) -> str:
    """The host bundle text of ``files`` (name -> text; names as in :func:`split_host`), the
    inverse of split_host: what `akgen eval --project` submits and a prompt shows."""
    parts = []
    for name, text in files.items():
        parts.append(f"================== op_host/{name} ==================\n```cpp\n{text.rstrip()}\n```\n")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class ProjectSources:
    kernel: str
    host: str
    kernel_name: str


def read_project(folder: Path) -> ProjectSources:
    """An op project folder (``op_kernel/<op>.cpp``, ``op_host/<op>.cpp`` and its headers) as a
    submission: the kernel text and the host bundle. Raises :class:`BundleError` when the folder
    does not have that layout (one kernel .cpp, one host .cpp)."""
    kdir, hdir = folder / "op_kernel", folder / "op_host"
    kernels = sorted(kdir.glob("*.cpp")) if kdir.is_dir() else []
    if len(kernels) != 1:
        raise BundleError(f"{folder}: an op project needs exactly one op_kernel/*.cpp (found {len(kernels)})")
    if not hdir.is_dir():
        raise BundleError(f"{folder}: no op_host/ folder")
    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(hdir.iterdir())
             if p.is_file() and p.suffix in (".cpp", ".cc", ".h", ".hpp")}
    host = make_bundle(op_build_files(files))
    split_host(host)  # the same rules as a submitted bundle
    return ProjectSources(kernels[0].read_text(encoding="utf-8"), host, kernels[0].name)
