"""Survey: how much public AscendC code compiles, runs and computes right on cpu-sim, unchanged.

Why: cpu-sim is judged by whether code written for CANN (op kernels, CPU-debug samples,
direct-launch sources) builds on it as the field writes it (akgen #18, design note section 8).
This script measures that on a corpus of public code nobody here wrote and names what blocks it,
so the missing API surface can be ranked by how many real sources it blocks.

Usage::

    python benchmarks/survey_ascendc.py /work/corpus [--family npukb] [--limit 20] [--jobs 2]
        [--include-dir /tmp/survey-base/bench_runner/ascend_sim/include] [--json out.json]
        [--no-run] [--top 30]
    python benchmarks/survey_ascendc.py --make-corpus /work/corpus [--mirror-root /work/.mirror]

The corpus (never committed) is re-created from ``benchmarks/survey_corpus.toml``: for each
``[[source]]`` (family, repo, commit, path globs) ``--make-corpus`` extracts those paths at that
commit into ``<corpus>/<family>/<owner>+<name>/``, from a bare mirror
``<mirror-root>/<owner>+<name>/repo`` when there is one, else from a clone of
``https://github.com/<repo>``. Recipe at the time of writing: NPUKernelBench's 157 tasks' answer op
projects (weich97/NPUKernelBench ``tasks/**/answer/**``), CANN's asc-devkit examples
(mirror-cann/asc-devkit ``examples/**``: ``.asc`` direct-launch sources with gen/verify scripts),
Huawei's kernel-invocation samples (Ascend/samples ``.../6_ascendc_custom_op/kernel_invocation``,
mindspore-courses/orange-pi-mindspore ``OpsDevTemplate/ascend_c_ops_dev``) and MultiKernelBench's
AscendC examples (wzzll123/MultiKernelBench ``prompts/ascendc_*``).

How an item is built (found by layout, under ``<corpus>/<family>/``; every command runs in
``bench_runner.sandbox`` with cpu-sim's real flags and headers from ``ascend_sim/build.py``):

* op project (a folder with ``op_kernel/``): each ``op_kernel/*.cpp`` is compiled to an object
  as CANN's op build compiles the kernel side: ``DTYPE_<NAME>``/``ORIG_DTYPE_<NAME>`` defined from
  the first data type of each input/output of op_host's ``OpDef``, ``op_kernel/`` and ``op_host/``
  on the include path, and op_host's tiling header (the one with ``BEGIN_TILING_DATA_DEF``)
  included before the kernel when the kernel does not include it itself, with ``using namespace
  optiling`` (CANN generates a global-scope kernel-side tiling struct from it). op_host itself
  is not compiled.
* CPU-debug sample (a folder with ``main.cpp`` and a kernel ``.cpp``): all its ``.cpp`` linked into
  one program; run with ``scripts/gen_data.py`` (or ``<kernel>.py``), then ``verify_result.py``.
* direct-launch ``.asc`` (kernel and host ``main`` in one file): compiled as C++ into a program,
  run from ``build/`` as the example's README says (``../scripts/gen_data.py``, ``./demo``,
  ``../scripts/verify_result.py output/output.bin output/golden.bin``).
* a loose kernel ``.cpp`` (includes ``kernel_operator.h``): compiled to an object.
* MultiKernelBench examples: a Python file with ``kernel_src``/``host_tiling_src``/
  ``project_json_src`` is materialised as an op project; a JSON submission's kernel ``.cpp`` files
  are compiled to objects.

When the measured tree has ``bench_runner/ascend_sim/source_rewrite.py`` (the ``<<<>>>`` launch
rewrite cpu-sim applies to submitted sources), sources pass through it first, as in cpu-sim.

"Correct" counts a program whose verify script exits 0, or a kernel whose ``extern "C"`` entry
matches a suite task's entry name and arity and passes ``bench_runner.evaluate`` on its
device-only path. Blocking names are parsed from g++'s errors (undeclared names, missing members
and headers, no matching overload, poisoned host names, undefined references ...), counted once
per item and ranked by the number of items they block.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import functools
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import types
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:  # measure the tree this script lives in, not the installed one
    sys.path.insert(0, str(REPO_ROOT))

from bench_runner import op_project, sandbox  # noqa: E402
from bench_runner.ascend_sim import build as default_build  # noqa: E402
from bench_runner.cann_sample import MIXED_TU_FLAG, is_mixed  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("survey_corpus.toml")
COMPILE_TIMEOUT_S = 300.0
RUN_TIMEOUT_S = 120.0
SCRIPT_TIMEOUT_S = 120.0

# ---------------------------------------------------------------------------------------------
# Blocker parsing

_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")


def _strip_templates(name: str) -> str:
    """``AscendC::LocalTensor<half>`` -> ``AscendC::LocalTensor`` (nested arguments too)."""
    prev = None
    while prev != name:
        prev, name = name, _TEMPLATE_ARGS.sub("", name)
    return name.strip()


def _callee(sig: str) -> str:
    """The function name of a g++ call signature ``'AscendC::Foo<half>(int, ...)'``."""
    depth = 0
    for i, ch in enumerate(sig):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            sig = sig[:i]
            break
    return _strip_templates(sig)


def _class_name(text: str) -> str:
    text = re.sub(r"^(const |volatile )*(class|struct|union|enum) ", "", text.strip())
    return _strip_templates(text).rstrip("&* ")


#: (pattern, function of the match giving the blocking name). First match wins per line.
_RULES: tuple[tuple[re.Pattern[str], object], ...] = (
    (re.compile(r"fatal error: ([^:\s]+): No such file or directory"), lambda m: f"#include {m[1]}"),
    (re.compile(r"error: attempt to use poisoned \"([^\"]+)\""), lambda m: f"poisoned {m[1]}"),
    (re.compile(r"error: '([^']+)' is not a member of '([^']+)'"),
     lambda m: f"{_strip_templates(m[2])}::{m[1]}"),
    (re.compile(r"error: '([^']+)' in namespace '([^']+)' does not name a (?:template )?type"),
     lambda m: f"{m[2]}::{m[1]}"),
    (re.compile(r"error: '([^']+)' was not declared in this scope"), lambda m: m[1]),
    (re.compile(r"error: there are no arguments to '([^']+)'"), lambda m: m[1]),
    (re.compile(r"error: '([^']+)' does not name a (?:template )?type"), lambda m: m[1]),
    (re.compile(r"error: '([^']+)' has not been declared"), lambda m: m[1]),
    (re.compile(r"error: '([^']+)' is not a (?:template|class, namespace, or enumeration|type)"), lambda m: m[1]),
    (re.compile(r"error: no type named '([^']+)' in '([^']+)'"), lambda m: f"{_class_name(m[2])}::{m[1]}"),
    (re.compile(r"error: '([^']+)' has no member named '([^']+)'"), lambda m: f"{_class_name(m[1])}::{m[2]}"),
    (re.compile(r"error: no matching function for call to '([^']+)'"), lambda m: f"{_callee(m[1])}(...)"),
    (re.compile(r"error: no matching member function for call to '([^']+)'"), lambda m: f"{m[1]}(...)"),
    (re.compile(r"error: call of overloaded '([^']+)' is ambiguous"), lambda m: f"ambiguous {_callee(m[1])}(...)"),
    (re.compile(r"error: too (?:many|few) arguments to function '([^']+)'"), lambda m: f"{_callee(m[1])}(...)"),
    (re.compile(r"error: static assertion failed: (.*)"), lambda m: f"static_assert: {m[1].strip()[:80]}"),
    (re.compile(r"undefined reference to `([^']+)'"), lambda m: f"undefined {_callee(m[1])}"),
    (re.compile(r"error: expected primary-expression before '<<' token"), lambda m: "<<<>>> launch"),
    (re.compile(r"error: expected primary-expression before '<' token"), lambda m: "'<' (<<<>>> launch?)"),
)
_ERROR = re.compile(r"(?:^|: )(?:fatal )?error: ")
_NUMBERS = re.compile(r"\b\d+\b")


_IDENT = re.compile(r"[A-Za-z_]\w*")


def declared_in(name: str, text: str) -> bool:
    """Whether the item's own code declares ``name`` (a variable, member, type or macro).

    An undeclared ``xLocal`` or ``inQueueX`` is almost always a cascade of an earlier error (its
    type did not parse), not a name cpu-sim lacks; such names are left out of the ranking.
    """
    n = re.escape(name)
    if re.search(rf"(?:[\w>\]*&]\s+|\bclass\s+|\bstruct\s+|#\s*define\s+|\busing\s+){n}\s*(?:[;=,)\[{{(:]|$)",
                 text, re.M):
        return True
    # the later names of a list declaration: `GlobalTensor<half> xGm, yGm, zGm;`
    return bool(re.search(rf"^\s*[\w:]+(?:<[^;()]*>)?[\s*&]+(?:\w+\s*,\s*)+{n}\s*[;=,]", text, re.M))


def parse_blockers(log: str, own_text: str = "") -> list[str]:
    """Blocking names in a g++/ld log, in order of first appearance, each once.

    Errors no rule names are kept as ``other: <message>`` (numbers and quoted names blanked), so
    a new kind of failure still shows up. Bare names the item's own code declares
    (``own_text``, see :func:`declared_in`) are cascades and are dropped.
    """
    found: dict[str, None] = {}
    for line in log.splitlines():
        hit = None
        for pattern, name_of in _RULES:
            m = pattern.search(line)
            if m:
                hit = name_of(m)  # type: ignore[operator]
                break
        if hit is None and _ERROR.search(line):
            msg = _ERROR.split(line, maxsplit=1)[-1]
            msg = re.sub(r"'[^']*'", "'_'", msg)
            hit = "other: " + _NUMBERS.sub("N", msg).strip()[:100]
        if hit and own_text and _IDENT.fullmatch(hit) and declared_in(hit, own_text):
            continue
        if hit:
            found.setdefault(hit, None)
    return list(found)


# ---------------------------------------------------------------------------------------------
# Corpus items


@dataclass(slots=True)
class RunSpec:
    """How a built program is exercised: commands relative to the item folder copy."""

    cwd: str  # "." or "build"
    gen: list[str] | None  # python argv (script + args) that writes input/ and golden data
    verify: list[str] | None  # python argv that exits 0 when the output is right
    program: str = "prog"


@dataclass(slots=True)
class Item:
    family: str
    kind: str  # op_project | sample | asc | kernel | mkb_prompt | mkb_json
    name: str  # path under the corpus root
    root: Path | None  # folder copied into the build box (None: files only)
    sources: list[str]  # translation units, relative to the box
    link: bool  # a program (has main) rather than objects
    defines: list[str] = field(default_factory=list)
    include_dirs: list[str] = field(default_factory=list)
    force_includes: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # written into the box (materialised items)
    run: RunSpec | None = None
    kernel_file: str | None = None  # the kernel TU, for suite matching


_KERNEL_INCLUDE = re.compile(r'#\s*include\s*[<"]kernel_operator\.h[">]')
_MAIN = re.compile(r"\bint(?:32_t)?\s+main\s*\(")
_LAUNCH = re.compile(r"ICPU_RUN_KF|<<<|_do\s*\(")
_SOURCE_SUFFIXES = {".cpp", ".asc", ".h", ".hpp", ".cc"}
_SKIP_DIRS = {".git", "build", "output", "__pycache__", "cmake", "third_party"}

_JSON_TYPES = {
    "float16": "half", "fp16": "half", "half": "half", "float": "float", "float32": "float",
    "fp32": "float", "bfloat16": "bfloat16_t", "bf16": "bfloat16_t", "int8": "int8_t",
    "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t",
    "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t", "bool": "bool", "double": "double",
}

def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def dtype_defines(pairs: Iterable[tuple[str, str]]) -> list[str]:
    """``-DDTYPE_X=half -DORIG_DTYPE_X=DT_FLOAT16`` for each (tensor name, C type), as the op build
    does, after the DT_ names as numbers (the macros are bench_runner.op_project's, as cpu-sim
    defines them for op projects)."""
    return ([f"-D{k}={v}" for k, v in op_project.ge_dtype_values().items()] +
            [f"-D{k}={v}" for k, v in op_project.dtype_macros(pairs).items()])


def opdef_dtypes(op_host_text: str) -> list[tuple[str, str]]:
    """(tensor name, C type of its first listed dtype) from an op_host OpDef."""
    return [(t.name, t.ctypes[0]) for t in op_project.opdef_tensors(op_host_text) if t.ctypes]


def _tiling_header(host_dir: Path) -> Path | None:
    if not host_dir.is_dir():
        return None
    name = op_project.tiling_header({h.name: _read(h) for h in sorted(host_dir.glob("*.h"))})
    return host_dir / name if name else None


def _force_includes(kernel_texts: Iterable[str], header_name: str | None) -> list[str]:
    if header_name is None or any(op_project.includes_header(t, header_name) for t in kernel_texts):
        return []
    return [header_name]


def _op_project(family: str, rel: str, folder: Path) -> Item:
    kdir, hdir = folder / "op_kernel", folder / "op_host"
    kernels = sorted(p for p in kdir.glob("*.cpp"))
    host_text = "\n".join(_read(p) for p in sorted(hdir.glob("*.cpp"))) if hdir.is_dir() else ""
    tiling = _tiling_header(hdir)
    texts = [_read(p) for p in kernels]
    return Item(family, "op_project", rel, folder, [f"op_kernel/{p.name}" for p in kernels], link=False,
                defines=dtype_defines(opdef_dtypes(host_text)), include_dirs=["op_kernel", "op_host"],
                force_includes=[f for f in _force_includes(texts, tiling.name if tiling else None)],
                kernel_file=f"op_kernel/{kernels[0].name}" if kernels else None)


def _python_cmds(text: str, script: str) -> list[list[str]]:
    """Argument lists of ``python3 ...<script> args`` lines in a README or run.sh."""
    cmds = []
    for line in text.splitlines():
        m = re.search(r"python3?\s+(\S*" + re.escape(script) + r")((?:\s+[\w./${}-]+)*)", line)
        if m:
            cmds.append([m[1], *m[2].split()])
    return cmds


def _sample(family: str, rel: str, folder: Path) -> Item:
    cpps = sorted(p.name for p in folder.glob("*.cpp"))
    kernel = next((c for c in cpps if c != "main.cpp" and _KERNEL_INCLUDE.search(_read(folder / c))),
                  next((c for c in cpps if c != "main.cpp"), None))
    docs = "\n".join(_read(p) for p in [folder / "run.sh", folder / "README.md"] if p.is_file())
    gen: list[str] | None = None
    if (folder / "scripts" / "gen_data.py").is_file():
        gen = ["scripts/gen_data.py"]
    elif kernel and (folder / (Path(kernel).stem + ".py")).is_file():
        gen = [Path(kernel).stem + ".py"]
    verify = None
    if (folder / "scripts" / "verify_result.py").is_file():
        found = [c for c in _python_cmds(docs, "verify_result.py") if len(c) >= 3 and "$" not in " ".join(c)]
        verify = ["scripts/verify_result.py", *(found[0][1:] if found else ["output/output_z.bin", "output/golden.bin"])]
    return Item(family, "sample", rel, folder, cpps, link=True, include_dirs=["."],
                run=RunSpec(".", gen, verify), kernel_file=kernel)


def _asc(family: str, rel: str, path: Path) -> Item:
    folder = path.parent
    docs = "\n".join(_read(p) for p in sorted(folder.glob("README*.md")))
    gen = _python_cmds(docs, "gen_data.py")
    verify = [c for c in _python_cmds(docs, "verify_result.py") if len(c) >= 3]
    spec = RunSpec(".", None, None)
    if (folder / "scripts" / "gen_data.py").is_file():
        cwd = "build" if (gen and gen[0][0].startswith("../")) or not gen else "."
        g = gen[0] if gen else ["../scripts/gen_data.py"]
        v = verify[0] if verify else (["../scripts/verify_result.py", "output/output.bin", "output/golden.bin"]
                                      if (folder / "scripts" / "verify_result.py").is_file() else None)
        spec = RunSpec(cwd, g, v)
    has_main = bool(_MAIN.search(_read(path)))
    # kernel and host main() in one file: built as `akgen sample run` builds it (no device poison)
    defines = [MIXED_TU_FLAG] if is_mixed(_read(path)) else []
    return Item(family, "asc", rel, folder, [path.name], link=has_main, include_dirs=["."], run=spec if has_main else None,
                kernel_file=None, defines=defines)


def _mkb_prompt(family: str, rel: str, path: Path) -> Item | None:
    """A MultiKernelBench example Python file holding an op project's sources as strings."""
    try:
        tree = ast.parse(_read(path))
    except SyntaxError:
        return None
    strings: dict[str, str] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            strings[node.targets[0].id] = node.value.value
    if "kernel_src" not in strings:
        return None
    pairs: list[tuple[str, str]] = []
    try:
        for op in json.loads(strings.get("project_json_src", "[]")):
            for t in [*op.get("input_desc", []), *op.get("output_desc", [])]:
                first = (t.get("type") or [""])[0]
                if first in _JSON_TYPES:
                    pairs.append((t["name"], _JSON_TYPES[first]))
    except (ValueError, TypeError, KeyError, AttributeError):
        pass
    stem = path.stem.replace("ascendc_new_model_", "")
    files = {f"op_kernel/{stem}.cpp": strings["kernel_src"]}
    force: list[str] = []
    if "host_tiling_src" in strings:
        header = f"{stem}_custom_tiling.h"
        files[f"op_host/{header}"] = strings["host_tiling_src"]
        force = _force_includes([strings["kernel_src"]], header)
    return Item(family, "mkb_prompt", rel, None, [f"op_kernel/{stem}.cpp"], link=False,
                defines=dtype_defines(pairs), include_dirs=["op_kernel", "op_host"], force_includes=force,
                files=files, kernel_file=f"op_kernel/{stem}.cpp")


def _mkb_json(family: str, rel: str, path: Path) -> Item | None:
    try:
        data = json.loads(_read(path))
        sources = {s["path"]: s["content"] for s in data["sources"]}
    except (ValueError, TypeError, KeyError):
        return None
    kernels = [p for p, t in sources.items() if p.endswith(".cpp") and _KERNEL_INCLUDE.search(t)]
    if not kernels:
        return None
    dirs = sorted({str(Path(p).parent) for p in sources})
    return Item(family, "mkb_json", rel, None, kernels, link=False, include_dirs=dirs, files=sources,
                kernel_file=kernels[0])


def discover(corpus: Path, families: Sequence[str] = ()) -> list[Item]:
    """Every buildable item under ``corpus/<family>/``, in a stable order."""
    items: list[Item] = []
    for fam_dir in sorted(p for p in corpus.iterdir() if p.is_dir()):
        if families and fam_dir.name not in families:
            continue
        for dirpath, dirnames, filenames in os.walk(fam_dir):
            here = Path(dirpath)
            rel = str(here.relative_to(corpus))
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
            if (here / "op_kernel").is_dir() and any((here / "op_kernel").glob("*.cpp")):
                items.append(_op_project(fam_dir.name, rel, here))
                dirnames[:] = []
                continue
            cpps = [f for f in filenames if f.endswith(".cpp")]
            if "main.cpp" in cpps and len(cpps) > 1 and _LAUNCH.search(_read(here / "main.cpp")):
                items.append(_sample(fam_dir.name, rel, here))
                dirnames[:] = []
                continue
            for f in sorted(filenames):
                path, frel = here / f, f"{rel}/{f}"
                if f.endswith(".asc"):
                    items.append(_asc(fam_dir.name, frel, path))
                elif f.endswith(".py") and f.startswith("ascendc_"):
                    item = _mkb_prompt(fam_dir.name, frel, path)
                    if item:
                        items.append(item)
                elif f.endswith(".json") and f.startswith("ascendc_"):
                    item = _mkb_json(fam_dir.name, frel, path)
                    if item:
                        items.append(item)
                elif f.endswith(".cpp") and f != "main.cpp" and _KERNEL_INCLUDE.search(_read(path)):
                    items.append(Item(fam_dir.name, "kernel", frel, here, [f], link=bool(_MAIN.search(_read(path))),
                                      include_dirs=["."], kernel_file=f))
    return items


# ---------------------------------------------------------------------------------------------
# The measured tree


@dataclass(slots=True)
class Tree:
    """cpu-sim as it is in one working tree: its build module and optional source rewrite."""

    build: types.ModuleType
    rewrite: object | None  # callable text -> text, or None


def load_tree(include_dir: Path | None) -> Tree:
    """cpu-sim's build module for ``include_dir`` (default: this tree's).

    A different include directory is measured with that tree's own ``build.py`` when it sits
    next to it (flags can differ between trees), else with this one's, pointed at it.
    """
    mod: types.ModuleType = default_build
    if include_dir is not None:
        include_dir = include_dir.resolve()
        other = include_dir.parent / "build.py"
        if other.is_file() and other.resolve() != Path(default_build.__file__).resolve():
            spec = importlib.util.spec_from_file_location("_survey_build", other)
            assert spec and spec.loader
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
        else:
            spec = importlib.util.spec_from_file_location("_survey_build", Path(default_build.__file__))
            assert spec and spec.loader
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
        mod.include_dir = lambda: include_dir  # type: ignore[attr-defined]
    rewrite = None
    rw_path = Path(mod.include_dir()).parent / "source_rewrite.py"
    if rw_path.is_file():
        spec = importlib.util.spec_from_file_location("_survey_source_rewrite", rw_path)
        if spec and spec.loader:
            rw = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(rw)
            except Exception:  # noqa: BLE001 - a half-written module in a live tree: measure without it
                rw = None
            for name in ("rewrite", "rewrite_source", "rewrite_launches"):
                if rw is not None and callable(getattr(rw, name, None)):
                    rewrite = getattr(rw, name)
                    break
    return Tree(mod, rewrite)


# ---------------------------------------------------------------------------------------------
# Building and running one item


@dataclass(slots=True)
class Outcome:
    family: str
    kind: str
    name: str
    compiled: bool
    blockers: list[str]
    ran: bool | None = None  # None: not runnable
    correct: bool | None = None
    note: str = ""
    log_tail: str = ""
    duration_s: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__slots__}  # type: ignore[attr-defined]


def _populate_box(item: Item, box: Path, tree: Tree) -> None:
    """Copy the item's files into the box (no symlinks), rewrite sources, hand them to the sandbox uid."""
    if item.root is not None:
        shutil.copytree(item.root, box / "src", symlinks=True,
                        ignore=shutil.ignore_patterns(".git", "build", "output"))
    else:
        (box / "src").mkdir()
    for rel, text in item.files.items():
        dst = box / "src" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(text, encoding="utf-8")
    for p in list((box / "src").rglob("*")):
        if p.is_symlink():
            p.unlink()
        elif tree.rewrite is not None and p.is_file() and p.suffix in _SOURCE_SUFFIXES:
            text = _read(p)
            new = tree.rewrite(text)  # type: ignore[operator]
            if isinstance(new, str) and new != text:
                p.write_text(new, encoding="utf-8")
    if item.run is not None:
        for sub in ("input", "output"):
            (box / "src" / item.run.cwd / sub).mkdir(parents=True, exist_ok=True)
    uid = sandbox.backend().drop_uid
    if uid is not None:  # nothing sandboxed has run yet, so nothing in the box can be a planted link
        for p in [box / "src", *(box / "src").rglob("*")]:
            os.lchown(p, uid, uid)


def _compile_argv(item: Item, tree: Tree, src: Path, tu: list[str], out: str, pch: Path | None) -> tuple[list[str], list[sandbox.Mount]]:
    mod = tree.build
    incs = [src / d for d in item.include_dirs]
    argv = list(mod.compile_command([src / t for t in tu], src / out, extra_include_dirs=incs))
    inc_root = Path(mod.include_dir())
    fingerprint = getattr(mod, "fingerprint", None)
    mounts = [sandbox.tree_mount(inc_root, fingerprint() if fingerprint else "")]
    if pch is not None:
        visible = sandbox.visible_copy(Path(pch))
        argv = [a.replace(str(pch), str(visible)) for a in argv]
        mounts.append(sandbox.Mount(visible))
    if not item.link:
        runtime = getattr(mod, "RUNTIME_OBJ", "ascend_sim_runtime.o")
        argv = [a for a in argv if not a.endswith(runtime)]
        argv.insert(1, "-c")
    first_src = argv.index(str(src / tu[0]))
    argv[first_src:first_src] = item.defines
    # .asc is CUDA-like C++ to the bisheng compiler; to g++ it is C++.
    argv = [x for a in argv for x in (["-x", "c++", a, "-x", "none"] if a.endswith(".asc") else [a])]
    return argv, mounts


def _wrapper_tu(src: Path, kernel: str, headers: Sequence[str], index: int) -> str:
    """A TU that includes ``headers`` and then the unchanged kernel file.

    The op build supplies the tiling struct without the kernel including op_host's header.
    Diagnostics still name the kernel's own file and line. The header comes first and the kernel
    then includes ``kernel_operator.h`` itself: including it a second time after the precompiled
    header was used fails with GCC (the cache directory has the .gch but no header), so the
    wrapper must not include it too; the kernel then compiles without the PCH (slower).
    """
    name = f"_survey_tu{index}.cpp"
    # CANN's kernel build sees the generated tiling struct at global scope; op_host declares it in
    # namespace optiling, so the kernel's unqualified `XxxTilingData` needs the using-directive.
    lines = [f'#include "{h}"' for h in headers] + ["namespace optiling {}", "using namespace optiling;",
                                                    f'#include "{kernel}"']
    (src / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    uid = sandbox.backend().drop_uid
    if uid is not None:
        os.lchown(src / name, uid, uid)
    return name


def _limits(wall: float) -> sandbox.Limits:
    return sandbox.Limits(wall_s=wall, cpu_s=wall, memory_bytes=4 * sandbox.GiB, processes=128,
                          file_bytes=512 * sandbox.MiB, tmp_bytes=1024 * sandbox.MiB, log_bytes=256 * 1024)


def _python_mounts() -> tuple[list[sandbox.Mount], dict[str, str]]:
    """numpy for the data scripts, read-only, at its own path (mirrored when the checkout, and so
    its virtual environment, is private to its owner), on PYTHONPATH."""
    import numpy

    site = Path(numpy.__file__).resolve().parents[1]
    trees = [site / "numpy", *(p for p in (site / "numpy.libs",) if p.is_dir())]
    return [sandbox.tree_mount(t, numpy.__version__) for t in trees], {"PYTHONPATH": str(site)}


def build_and_run(item: Item, tree: Tree, pch: Path | None, *, run: bool = True) -> Outcome:
    """Compile ``item`` unchanged in a fresh sandboxed job; run and verify it where it can be."""
    started = time.monotonic()
    # A live tree's headers may change during a survey: the cache must match them, item by item.
    pch = tree.build.ensure_pch() or pch
    out = Outcome(item.family, item.kind, item.name, compiled=False, blockers=[])
    if not item.sources:
        out.note = "no kernel source"
        return out
    with sandbox.job_dir() as job:
        _populate_box(item, job.box, tree)
        src = job.box / "src"
        logs: list[str] = []
        ok = True
        units = [item.sources] if item.link else [[s] for s in item.sources]
        for i, tu in enumerate(units):
            target = (item.run.program if item.run else "prog") if item.link else f"obj{i}.o"
            if item.link and item.run is not None:
                target = str(Path(item.run.cwd) / item.run.program)
            if item.force_includes and not item.link:
                tu = [_wrapper_tu(src, tu[0], item.force_includes, i)]
            argv, mounts = _compile_argv(item, tree, src, tu, target, pch)
            res = sandbox.run(argv, box=src, logs=job.logs / f"cc{i}", limits=_limits(COMPILE_TIMEOUT_S), mounts=mounts)
            logs.append(res.stderr)
            if not res.ok:
                ok = False
                if res.limit is not None:
                    logs.append(f"error: compile stopped by the {res.limit} limit")
        log = "\n".join(logs).replace(str(src) + "/", "")
        out.compiled = ok
        own = "\n".join(_read(p) for p in src.rglob("*") if p.is_file() and p.suffix in _SOURCE_SUFFIXES)
        out.blockers = [] if ok else parse_blockers(log, own)
        if not ok:
            out.log_tail = "\n".join(line for line in log.splitlines() if "error" in line)[:2000]
        if ok and run and item.run is not None:
            _run_program(item, job, src, out)
    if out.compiled and run and item.kernel_file and item.kind in {"sample", "kernel", "op_project", "mkb_prompt"}:
        _try_suite(item, tree, out)
    out.duration_s = round(time.monotonic() - started, 2)
    return out


def _in_cwd(cwd: str, argv: Sequence[str]) -> list[str]:
    """``argv`` run from ``cwd`` (relative to the box) through /bin/sh, so the box stays the root."""
    return ["/bin/sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", cwd, *argv]


def _run_program(item: Item, job: sandbox.JobDir, src: Path, out: Outcome) -> None:
    spec = item.run
    assert spec is not None
    py_mounts, py_env = _python_mounts()
    if spec.gen:
        res = sandbox.run(_in_cwd(spec.cwd, ["/usr/bin/python3", *spec.gen]), box=src, logs=job.logs / "gen",
                          limits=_limits(SCRIPT_TIMEOUT_S), mounts=py_mounts, env=py_env)
        if not res.ok:
            out.ran, out.note = False, "gen_data failed: " + (res.stderr or res.stdout)[-300:]
            return
    res = sandbox.run(_in_cwd(spec.cwd, [f"./{spec.program}"]), box=src, logs=job.logs / "run",
                      limits=_limits(RUN_TIMEOUT_S), env={"ASCEND_SIM_TIMEOUT_S": "60"})
    out.ran = res.ok
    if not res.ok:
        out.note = f"run failed (exit {res.exit_code}, signal {res.signal}, limit {res.limit}): " + res.stderr[-300:]
        return
    if spec.verify:
        res = sandbox.run(_in_cwd(spec.cwd, ["/usr/bin/python3", *spec.verify]), box=src, logs=job.logs / "verify",
                          limits=_limits(SCRIPT_TIMEOUT_S), mounts=py_mounts, env=py_env)
        out.correct = res.ok and "[ERROR]" not in res.stdout
        if not out.correct:
            out.note = "verify failed: " + (res.stdout + res.stderr)[-300:]


_ENTRY = re.compile(r'extern\s+"C"\s+__global__\s+(?:__aicore__|__vector__|__cube__)\s+void\s+(\w+)\s*\(([^)]*)\)')


def kernel_entries(text: str) -> list[tuple[str, int]]:
    """(name, parameter count) of each ``extern "C" __global__ __aicore__`` entry in a kernel."""
    out = []
    for m in _ENTRY.finditer(text):
        params = [p for p in m[2].split(",") if p.strip() and p.strip() != "void"]
        out.append((m[1], len(params)))
    return out


@functools.lru_cache(maxsize=1)
def _suite_tasks() -> list[object]:
    from bench_runner import tasks

    return list(tasks.load_suite().tasks)


def _try_suite(item: Item, tree: Tree, out: Outcome) -> None:
    """Evaluate the kernel on each suite task whose entry name and arity it matches (device-only)."""
    if tree.build is not default_build:  # evaluate() uses this tree's headers: only meaningful there
        return
    from bench_runner import evaluate

    assert item.kernel_file
    text = item.files.get(item.kernel_file) if item.files else None
    if text is None and item.root is not None:
        text = _read(item.root / item.kernel_file)
    if not text:
        return
    entries = set(kernel_entries(text))
    for task in _suite_tasks():
        if (task.entry, len(task.kernel_args)) not in entries or "device_only" not in task.paths:  # type: ignore[attr-defined]
            continue
        try:
            res = evaluate.evaluate(task, text, path="device_only", baseline=False, use_cache=False)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 - a rejected source is a result here, not a crash
            out.note += f" suite {task.slug}: {type(exc).__name__}: {str(exc)[:200]}"  # type: ignore[attr-defined]
            out.correct = False if out.correct is None else out.correct
            continue
        passed = res.verdict == "passed"
        out.note += f" suite {task.slug}: {res.verdict}"  # type: ignore[attr-defined]
        out.correct = passed if out.correct is None else (out.correct or passed)
        if out.ran is None:
            out.ran = res.verdict not in {"compile_error", "sandbox_violation", "system_error"}


# ---------------------------------------------------------------------------------------------
# Survey and report


def survey(items: Sequence[Item], tree: Tree, *, jobs: int = 2, run: bool = True,
           progress: bool = False) -> list[Outcome]:
    pch = tree.build.ensure_pch()
    results: list[Outcome | None] = [None] * len(items)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = {pool.submit(build_and_run, it, tree, pch, run=run): i for i, it in enumerate(items)}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            i = futs[fut]
            try:
                results[i] = fut.result()
            except Exception as exc:  # noqa: BLE001 - one broken item must not end the survey
                it = items[i]
                results[i] = Outcome(it.family, it.kind, it.name, False, [f"survey error: {type(exc).__name__}"],
                                     note=str(exc)[:300])
            if progress:
                r = results[i]
                assert r is not None
                print(f"[{n}/{len(items)}] {'ok ' if r.compiled else 'ERR'} {r.name}", file=sys.stderr, flush=True)
    return [r for r in results if r is not None]


def summarize(outcomes: Sequence[Outcome], top: int = 30) -> dict[str, object]:
    """Counts per family and overall, and the blocking names ranked by items blocked."""
    fams: dict[str, dict[str, object]] = {}
    for fam in sorted({o.family for o in outcomes}) + ["all"]:
        sel = [o for o in outcomes if fam == "all" or o.family == fam]
        blockers = Counter(b for o in sel for b in set(o.blockers) if not b.startswith("other: "))
        others = Counter(b for o in sel for b in set(o.blockers) if b.startswith("other: "))
        first = Counter(o.blockers[0] for o in sel if o.blockers)
        fams[fam] = {
            "items": len(sel),
            "compiled": sum(o.compiled for o in sel),
            "runnable": sum(o.ran is not None for o in sel),
            "ran": sum(bool(o.ran) for o in sel),
            "checked": sum(o.correct is not None for o in sel),
            "correct": sum(bool(o.correct) for o in sel),
            "top_blockers": blockers.most_common(top),
            "first_blockers": first.most_common(top),
            "other_errors": others.most_common(10),
        }
    return {"families": fams}


def render(summary: dict[str, object], header: str = "") -> str:
    fams: dict[str, dict[str, object]] = summary["families"]  # type: ignore[assignment]
    lines = [header] if header else []
    lines += ["| family | items | compile as-is | runnable | ran | checked | correct |", "|---|---|---|---|---|---|---|"]
    for fam, s in fams.items():
        lines.append(f"| {fam} | {s['items']} | {s['compiled']} | {s['runnable']} | {s['ran']} | {s['checked']} | {s['correct']} |")
    for fam, s in fams.items():
        for key, title in (("top_blockers", "blocking names"), ("first_blockers", "first error's name"),
                           ("other_errors", "errors without a name")):
            if s[key]:
                lines += ["", f"{fam}: {title} (items)", ""]
                lines += [f"{n:4d}  {name}" for name, n in s[key]]  # type: ignore[union-attr]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Corpus re-creation


def make_corpus(dest: Path, manifest: Path = MANIFEST, mirror_root: Path | None = None) -> list[str]:
    """Extract every manifest source at its pinned commit into ``dest/<family>/<owner>+<name>/``."""
    done = []
    for src in tomllib.loads(manifest.read_text())["source"]:
        repo, commit, family = src["repo"], src["commit"], src["family"]
        slug = repo.replace("/", "+")
        target = dest / family / slug
        target.mkdir(parents=True, exist_ok=True)
        git_dir = mirror_root / slug / "repo" if mirror_root else None
        tmp = None
        if git_dir is None or not git_dir.is_dir():
            tmp = Path(tempfile.mkdtemp(prefix="survey-clone-"))
            subprocess.run(["git", "clone", "--bare", "--filter=blob:none", f"https://github.com/{repo}.git",
                            str(tmp / "repo")], check=True)
            git_dir = tmp / "repo"
        try:
            specs = [f":(glob){p}" for p in src["paths"]]
            archive = subprocess.run(["git", f"--git-dir={git_dir}", "archive", commit, "--", *specs],
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        finally:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
        done.append(f"{family}: {repo}@{commit[:12]} {' '.join(src['paths'])}")
    return done


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("corpus", nargs="?", type=Path, help="corpus root (folders per family)")
    p.add_argument("--family", action="append", default=[], help="only this family (repeatable)")
    p.add_argument("--limit", type=int, default=0, help="at most this many items per family")
    p.add_argument("--jobs", type=int, default=2, help="parallel builds")
    p.add_argument("--include-dir", type=Path, help="cpu-sim include dir to measure (another tree's)")
    p.add_argument("--json", type=Path, help="write the outcomes and summary here")
    p.add_argument("--top", type=int, default=30, help="blocking names to list")
    p.add_argument("--no-run", action="store_true", help="compile only")
    p.add_argument("--progress", action="store_true", help="one stderr line per item")
    p.add_argument("--make-corpus", type=Path, metavar="DIR", help="re-create the corpus from the manifest")
    p.add_argument("--mirror-root", type=Path, help="bare mirrors <root>/<owner>+<name>/repo for --make-corpus")
    args = p.parse_args(argv)
    if args.make_corpus:
        for line in make_corpus(args.make_corpus, mirror_root=args.mirror_root):
            print(line)
        return 0
    if args.corpus is None:
        p.error("give a corpus root (or --make-corpus DIR)")
    tree = load_tree(args.include_dir)
    items = discover(args.corpus, args.family)
    if args.limit:
        per: Counter[str] = Counter()
        kept = []
        for it in items:
            per[it.family] += 1
            if per[it.family] <= args.limit:
                kept.append(it)
        items = kept
    started = time.monotonic()
    outcomes = survey(items, tree, jobs=args.jobs, run=not args.no_run, progress=args.progress)
    summary = summarize(outcomes, args.top)
    inc = Path(tree.build.include_dir())
    header = (f"cpu-sim survey: {len(outcomes)} items, include dir {inc}, source rewrite "
              f"{'on' if tree.rewrite else 'absent'}, {time.monotonic() - started:.0f} s")
    print(render(summary, header))
    if args.json:
        args.json.write_text(json.dumps({"include_dir": str(inc), "source_rewrite": tree.rewrite is not None,
                                         "corpus": str(args.corpus), **summary,
                                         "items": [o.to_dict() for o in outcomes]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
