"""The task format: load a task folder, validate every field, and find tasks in a suite.

A task folder (``bench_runner/suites/<suite>/<slug>/``) holds ``task.toml``, ``api_desc.md``,
``reference.py``, ``template/`` and ``expert/``; ``docs/evaluator.md`` is the format's reference.
Validation is strict and happens at load time, so a malformed task is reported once, with the
file, the field and what was expected, instead of failing half-way through an evaluation.
This module does not run kernels and does not import the task's ``reference.py``
(see :mod:`bench_runner.reference`).
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from bench_runner import dtypes
from bench_runner.contracts import MAX_SOURCE_BYTES, MAX_TASK_SOURCE_BYTES
from bench_runner.errors import TaskFormatError, UnknownTaskError
from bench_runner.splits import STATIC_SUFFIX

FORMAT_VERSION = 1
PATHS = ("device_only", "host_device")
SHAPE_MODES = ("static", "dynamic")
KERNEL_MODES = ("aiv", "aic", "mix")
DEFAULT_SUITE_DIR = Path(__file__).resolve().parent / "suites" / "npukb"

#: Default tolerances per dtype, combined as ``|got - want| <= atol + rtol * |want|``.
#: Integer and bool outputs are always compared exactly.
DEFAULT_TOLERANCES: dict[str, tuple[float, float]] = {
    "float32": (1e-4, 1e-5),
    "float16": (1e-3, 1e-3),
    "bfloat16": (1e-2, 1e-2),
}
#: Limits a task may raise (seconds / MiB); anything else about the sandbox is not up to a task.
LIMIT_KEYS = ("run_wall_s", "run_cpu_s", "run_memory_mb", "compile_wall_s", "source_bytes")
#: The limits one case may raise above its task's (a large case needs more time than the task's
#: small ones, whose hangs should still end quickly); compilation happens once per task.
CASE_LIMIT_KEYS = ("run_wall_s", "run_cpu_s", "run_memory_mb")

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class TensorSpec:
    name: str
    dtype: dtypes.DType
    #: Each dimension is an int or an arithmetic expression over the case's ``dims``.
    shape: tuple[int | str, ...]
    #: Uniform range the default input generator draws from (inputs only).
    value_range: tuple[float, float] | None = None
    #: For in-place outputs: the input whose buffer holds this output.
    alias: str | None = None
    #: For in-place outputs: the kernel still receives this output as an argument of its own,
    #: pointing at the input's buffer (a CANN OpDef output named like an input: a "ref" output,
    #: ``var`` in and ``var`` out, is handed to the kernel twice).
    argument: bool = False
    #: A tensor list (a DYNAMIC input or output of a CANN OpDef): the kernel's argument points at
    #: a list descriptor, each tensor has its own buffer and shape (the case's ``lists``). Inputs,
    #: goldens and outputs hold the tensors one after the other, flat, in ``shape``.
    list: bool = False
    #: For outputs: whether the verdict compares it. An output the op must write but the task
    #: does not judge (``judged = false``: a norm's ``rstd`` that NPUKernelBench's binding does
    #: not return) still gets a buffer of its shape and the guards on it; no golden is compared.
    judged: bool = True


@dataclass(frozen=True, slots=True)
class CaseSpec:
    name: str
    dims: Mapping[str, int]
    seed: int
    attributes: Mapping[str, Any]
    #: The limits its runs get: the task's ``[limits]`` with this case's own ``limits`` over them
    #: (keys from :data:`CASE_LIMIT_KEYS`). Read run limits from here, never from the task.
    limits: Mapping[str, float] = field(default_factory=dict)
    #: Per tensor list: the shape of each of its tensors in this case.
    lists: Mapping[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)

    def shape_of(self, tensor: TensorSpec) -> tuple[int, ...]:
        return tuple(eval_dim(d, self.dims) for d in tensor.shape)


@dataclass(frozen=True, slots=True)
class Tolerance:
    rtol: float
    atol: float


@dataclass(frozen=True, slots=True)
class Task:
    slug: str
    title: str
    level: int
    category: str
    shape_mode: str
    entry: str
    paths: tuple[str, ...]
    #: Fixed launch width, or None when the host tiling function chooses it.
    block_dim: int | None
    tiling: bool
    workspace: bool
    #: Which cores the launch uses: "aiv" (vector), "aic" (cube) or "mix".
    kernel_mode: str
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    attributes: Mapping[str, Any]
    cases: tuple[CaseSpec, ...]
    tolerances: Mapping[str, Tolerance]
    #: Matmul-like tasks: the inner dimension that tolerances scale with, and its base size.
    reduce_dim: str | None
    reduce_base: int
    limits: Mapping[str, float]
    root: Path
    #: sha256 over every file of the task folder: any edit makes a new version.
    version: str
    host_template: Path | None = None
    include_dir: Path | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: For a derived static variant: the dynamic task it was made from (see static_variant).
    variant_of: str | None = None
    #: Judge every case even after one fails (a suite scored per case, as NPUKernelBench is:
    #: passed cases / all cases); by default the first failing case ends the evaluation.
    every_case: bool = False

    @property
    def source_limit(self) -> int:
        """The largest kernel or host source this task accepts, in UTF-8 bytes."""
        return int(self.limits.get("source_bytes", MAX_SOURCE_BYTES))

    @property
    def needs_host(self) -> bool:
        """Whether a host tiling function runs before each launch."""
        return self.tiling or self.block_dim is None or self.workspace

    def shared_headers(self) -> list[tuple[str, Path]]:
        """The task's headers the kernel may include (``template/include``, subfolders too, as a
        CANN op_kernel folder has them): each as its path relative to the kernel and its file."""
        if self.include_dir is None:
            return []
        return [(p.relative_to(self.include_dir).as_posix(), p)
                for p in sorted(self.include_dir.rglob("*")) if p.is_file()]

    @property
    def kernel_args(self) -> tuple[str, ...]:
        """The kernel's GM_ADDR parameters in order: inputs, outputs, workspace, tiling."""
        args = [t.name for t in self.inputs] + [t.name for t in self.outputs if t.alias is None or t.argument]
        if self.workspace:
            args.append("workspace")
        if self.tiling:
            args.append("tiling")
        return tuple(args)

    @property
    def kernel_buffers(self) -> tuple[str, ...]:
        """The GM buffer behind each of :attr:`kernel_args`: an in-place output's argument points
        at its input's buffer."""
        aliases = {t.name: t.alias for t in self.outputs if t.alias is not None}
        return tuple(aliases.get(a) or a for a in self.kernel_args)

    def file(self, rel: str) -> Path:
        return self.root / rel

    @property
    def api_desc(self) -> str:
        text = self.file("api_desc.md").read_text(encoding="utf-8")
        if self.variant_of is None:
            return text
        case = self.cases[0]
        shapes = ", ".join(f"`{t.name}` {list(case.shape_of(t))}" for t in self.inputs)
        return (f"> **Static variant of `{self.variant_of}`.** Only one shape is tested: case "
                f"`{case.name}` ({shapes}). Sizes, tile counts and loop bounds may be hard-coded; the "
                "kernel signature, the tiling struct and the semantics below are unchanged, and where "
                "the text speaks of any length it means this one.\n\n" + text)

    @property
    def template_kernel(self) -> Path:
        return self.file("template/kernel.cpp")

    @property
    def expert_kernel(self) -> Path:
        return self.file("expert/kernel.cpp")

    @property
    def expert_host(self) -> Path | None:
        """The expert's host tiling, else the template's fixed host, else None."""
        own = self.file("expert/host.cpp")
        return own if own.is_file() else self.host_template

    def tolerance_for(self, dtype_name: str, case: CaseSpec) -> Tolerance | None:
        """Tolerance for one output dtype in one case; None means exact comparison."""
        tol = self.tolerances.get(dtype_name)
        if tol is None:
            return None
        if self.reduce_dim is None:
            return tol
        k = int(case.dims.get(self.reduce_dim, self.reduce_base))
        scale = max(1.0, (k / self.reduce_base) ** 0.5)
        return Tolerance(rtol=tol.rtol * scale, atol=tol.atol * scale)

    def summary(self) -> dict[str, Any]:
        """A JSON-ready description, for ``akgen suite list/show`` and the platform."""
        return {
            "slug": self.slug,
            "title": self.title,
            "level": self.level,
            "category": self.category,
            "shape_mode": self.shape_mode,
            "entry": self.entry,
            "paths": list(self.paths),
            "block_dim": self.block_dim if self.block_dim is not None else "host",
            "tiling": self.tiling,
            "workspace": self.workspace,
            "kernel_mode": self.kernel_mode,
            "kernel_args": list(self.kernel_args),
            "inputs": [_tensor_summary(t) for t in self.inputs],
            "outputs": [_tensor_summary(t) for t in self.outputs],
            "attributes": dict(self.attributes),
            "cases": [
                {"name": c.name, "dims": dict(c.dims), "seed": c.seed, "attributes": dict(c.attributes),
                 "limits": dict(c.limits), **({"lists": {k: [list(s) for s in v] for k, v in c.lists.items()}}
                                              if c.lists else {})}
                for c in self.cases
            ],
            "tolerances": {k: {"rtol": v.rtol, "atol": v.atol} for k, v in self.tolerances.items()},
            "reduce_dim": self.reduce_dim,
            "source_bytes": self.source_limit,
            "every_case": self.every_case,
            "version": self.version,
            "variant_of": self.variant_of,
        }


def _tensor_summary(t: TensorSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"name": t.name, "dtype": t.dtype.name, "shape": list(t.shape)}
    if t.alias:
        out["alias"] = t.alias
    if t.argument:
        out["argument"] = True
    if t.list:
        out["list"] = True
    if not t.judged:
        out["judged"] = False
    return out


# ---------------------------------------------------------------------------------------------
# Shape expressions


_ALLOWED_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
                   ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b}


def eval_dim(expr: int | str, dims: Mapping[str, int]) -> int:
    """Evaluate one shape dimension: an int, a dim name, or ``+ - * //`` over them."""
    if isinstance(expr, int):
        return expr
    return _eval_node(ast.parse(expr, mode="eval").body, dims)


def _eval_node(node: ast.AST, dims: Mapping[str, int]) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in dims:
            raise KeyError(node.id)
        return int(dims[node.id])
    if isinstance(node, ast.BinOp) and type(node.op) in _ALLOWED_BINOPS:
        return _ALLOWED_BINOPS[type(node.op)](_eval_node(node.left, dims), _eval_node(node.right, dims))
    raise ValueError(f"unsupported expression element {ast.dump(node)}")


def _dim_names(expr: int | str) -> set[str]:
    if isinstance(expr, int):
        return set()
    return {n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)}


# ---------------------------------------------------------------------------------------------
# Loading


class _Reader:
    """Typed field access that turns every mistake into a TaskFormatError naming the field."""

    def __init__(self, file: str, data: Mapping[str, Any], prefix: str = "") -> None:
        self.file, self.data, self.prefix = file, data, prefix

    def _name(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def fail(self, key: str, expected: str, got: object = None) -> TaskFormatError:
        return TaskFormatError(self.file, self._name(key), expected, got)

    def get(self, key: str, kind: type | tuple[type, ...], expected: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(key, f"{expected} (field is missing)")
            return default
        value = self.data[key]
        if isinstance(value, bool) and kind is not bool and not (isinstance(kind, tuple) and bool in kind):
            raise self.fail(key, expected, value)
        if not isinstance(value, kind):
            raise self.fail(key, expected, value)
        return value

    def sub(self, key: str, value: Mapping[str, Any]) -> _Reader:
        return _Reader(self.file, value, f"{self._name(key)}.")

    def unknown_keys(self, allowed: set[str]) -> None:
        extra = sorted(set(self.data) - allowed)
        if extra:
            raise self.fail(extra[0], f"one of the known fields ({', '.join(sorted(allowed))})", extra[0])


_TOP_KEYS = {"format", "slug", "title", "level", "category", "shape_mode", "entry", "paths",
             "block_dim", "tiling", "workspace", "kernel_mode", "inputs", "outputs", "attributes", "tolerance",
             "limits", "cases", "extra", "every_case"}


def load_task(folder: Path) -> Task:
    """Load and validate one task folder; raises TaskFormatError with file, field and expectation."""
    folder = Path(folder).resolve()
    try:
        return _load_task(folder)
    except TaskFormatError as exc:
        exc.slug = folder.name
        raise


def _load_task(folder: Path) -> Task:
    toml_path = folder / "task.toml"
    fname = str(toml_path)
    if not toml_path.is_file():
        raise TaskFormatError(str(folder), "task.toml", "a task.toml file in the task folder")
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TaskFormatError(fname, "(syntax)", "valid UTF-8 TOML", str(exc)) from None
    r = _Reader(fname, data)
    r.unknown_keys(_TOP_KEYS)

    fmt = r.get("format", int, f"the format version {FORMAT_VERSION}")
    if fmt != FORMAT_VERSION:
        raise r.fail("format", f"format version {FORMAT_VERSION}", fmt)
    slug = r.get("slug", str, "a lower-case slug [a-z0-9_]")
    if not _SLUG.match(slug):
        raise r.fail("slug", "a lower-case slug [a-z0-9_]", slug)
    if slug != folder.name:
        raise r.fail("slug", f"the folder name {folder.name!r}", slug)
    title = r.get("title", str, "a one-line title")
    level = r.get("level", int, "1, 2 or 3")
    if level not in (1, 2, 3):
        raise r.fail("level", "1, 2 or 3", level)
    category = r.get("category", str, "a category name such as 'elementwise'")
    shape_mode = r.get("shape_mode", str, "'static' or 'dynamic'")
    if shape_mode not in SHAPE_MODES:
        raise r.fail("shape_mode", "'static' or 'dynamic'", shape_mode)
    entry = r.get("entry", str, "the kernel function name (a C identifier)")
    if not _IDENT.match(entry):
        raise r.fail("entry", "a C identifier", entry)
    paths = r.get("paths", list, f"a non-empty list drawn from {list(PATHS)}")
    if not paths or any(p not in PATHS for p in paths) or len(set(paths)) != len(paths):
        raise r.fail("paths", f"a non-empty list drawn from {list(PATHS)} without repeats", paths)
    block_dim_raw = r.get("block_dim", (int, str), "a launch width 1..65535 or \"host\"")
    if block_dim_raw == "host":
        block_dim = None
    elif isinstance(block_dim_raw, int) and 1 <= block_dim_raw <= 65535:
        block_dim = block_dim_raw
    else:
        raise r.fail("block_dim", "a launch width 1..65535 or \"host\"", block_dim_raw)
    tiling = r.get("tiling", bool, "true or false", default=False)
    workspace = r.get("workspace", bool, "true or false", default=False)
    every_case = r.get("every_case", bool, "true or false", default=False)
    kernel_mode = r.get("kernel_mode", str, "'aiv', 'aic' or 'mix'", default="aiv")
    if kernel_mode not in KERNEL_MODES:
        raise r.fail("kernel_mode", "'aiv', 'aic' or 'mix'", kernel_mode)

    inputs = tuple(_load_tensors(r, "inputs", is_input=True))
    outputs = tuple(_load_tensors(r, "outputs", is_input=False))
    names = [t.name for t in inputs] + [t.name for t in outputs if t.alias is None or t.argument]
    dup = {n for n in names if names.count(n) > 1} | ({"workspace", "tiling"} & set(names))
    if dup:
        raise r.fail("outputs", "tensor names unique across inputs and outputs, and not "
                     "'workspace' or 'tiling'", sorted(dup)[0])
    by_name = {t.name: t for t in inputs}
    for i, out in enumerate(outputs):
        if out.alias is not None:
            src = by_name.get(out.alias)
            if src is None or src.dtype != out.dtype or src.shape != out.shape:
                raise r.fail(f"outputs[{i}].alias", "the name of an input with the same dtype and shape",
                             out.alias)

    attributes = r.get("attributes", dict, "a table of scalar attributes", default={})
    for k, v in attributes.items():
        if not _IDENT.match(k) or not isinstance(v, int | float | bool | str):
            raise r.fail(f"attributes.{k}", "a scalar (int, float, bool or string) under a C identifier", v)

    tolerances, reduce_dim, reduce_base = _load_tolerances(r)
    limits = _load_limits(r)
    cases = tuple(_load_cases(r, inputs + outputs, attributes, limits))
    extra = r.get("extra", dict, "a table", default={})

    if shape_mode == "static":
        first = dict(cases[0].dims)
        for i, c in enumerate(cases):
            if dict(c.dims) != first:
                raise r.fail(f"cases[{i}].dims", "the same dims in every case of a static task "
                             f"({first})", dict(c.dims))
    elif not tiling:
        raise r.fail("tiling", "true for a dynamic task (the kernel learns shapes from tiling data)",
                     tiling)
    static_case = extra.get("static_case")
    if static_case is not None and static_case not in {c.name for c in cases}:
        raise r.fail("extra.static_case", "the name of one of the task's cases", static_case)
    if reduce_dim is not None and any(reduce_dim not in c.dims for c in cases):
        raise r.fail("tolerance.reduce_dim", "a dim defined in every case", reduce_dim)

    for rel in ("api_desc.md", "reference.py", "template/kernel.cpp", "expert/kernel.cpp"):
        if not (folder / rel).is_file():
            raise TaskFormatError(str(folder / rel), "(file)", f"the file {rel} in the task folder")
    _check_reference(folder / "reference.py")
    host_template = folder / "template" / "host.cpp"
    needs_host = tiling or block_dim is None or workspace
    if needs_host and not host_template.is_file():
        raise TaskFormatError(str(host_template), "(file)", "a host tiling file template/host.cpp, "
                              "because the task has tiling, a workspace or block_dim = \"host\"")
    if not needs_host and host_template.is_file():
        raise TaskFormatError(str(host_template), "(file)", "no template/host.cpp: the task has no "
                              "tiling, no workspace and a fixed block_dim")
    if not needs_host and "host_device" in paths:
        raise r.fail("paths", "only device_only for a task without host tiling", paths)
    include_dir = folder / "template" / "include"

    return Task(
        slug=slug, title=title, level=level, category=category, shape_mode=shape_mode,
        entry=entry, paths=tuple(paths), block_dim=block_dim, tiling=tiling, workspace=workspace,
        kernel_mode=kernel_mode,
        inputs=inputs, outputs=outputs, attributes=attributes, cases=cases,
        tolerances=tolerances, reduce_dim=reduce_dim, reduce_base=reduce_base, limits=limits,
        root=folder, version=folder_digest(folder),
        host_template=host_template if host_template.is_file() else None,
        include_dir=include_dir if include_dir.is_dir() else None, extra=extra, every_case=every_case,
    )


def _check_reference(path: Path) -> None:
    """Syntax and the presence of golden(), without running the module (listing stays cheap)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError) as exc:
        raise TaskFormatError(str(path), "(syntax)", "valid Python", str(exc)) from None
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    if "golden" not in funcs or len(funcs["golden"].args.args) not in (2, 3):
        raise TaskFormatError(str(path), "golden", "a top-level function golden(inputs, attrs) or "
                              "golden(inputs, attrs, case)")
    gen = funcs.get("make_inputs")
    if gen is not None and len(gen.args.args) != 2:
        raise TaskFormatError(str(path), "make_inputs", "make_inputs(case, rng) with two parameters")


def _load_tensors(r: _Reader, key: str, *, is_input: bool) -> list[TensorSpec]:
    items = r.get(key, list, f"an array of [[{key}]] tables")
    if not items:
        raise r.fail(key, f"at least one [[{key}]] table")
    allowed = {"name", "dtype", "shape", "range", "list"} if is_input else {"name", "dtype", "shape", "alias", "argument", "list", "judged"}
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise r.fail(f"{key}[{i}]", "a table", item)
        t = r.sub(f"{key}[{i}]", item)
        t.unknown_keys(allowed)
        name = t.get("name", str, "a C identifier")
        if not _IDENT.match(name):
            raise t.fail("name", "a C identifier", name)
        dtype_name = t.get("dtype", str, f"one of {', '.join(dtypes.NAMES)}")
        if dtype_name not in dtypes.NAMES:
            raise t.fail("dtype", f"one of {', '.join(dtypes.NAMES)}", dtype_name)
        shape = t.get("shape", list, "a list of ints or dim expressions such as \"N\" or \"N*2\"")
        for j, d in enumerate(shape):
            ok = isinstance(d, int) and not isinstance(d, bool) and d >= 0
            if isinstance(d, str):
                try:
                    _eval_node(ast.parse(d, mode="eval").body, _AnyDims())
                    ok = True
                except (SyntaxError, ValueError):
                    ok = False
            if not ok:
                raise t.fail(f"shape[{j}]", "a non-negative int or an expression of dim names with "
                             "+ - * //", d)
        value_range = None
        if "range" in item:
            rng = t.get("range", list, "[low, high] with low < high")
            if (len(rng) != 2 or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in rng)
                    or not rng[0] < rng[1]):
                raise t.fail("range", "[low, high] with low < high", rng)
            value_range = (float(rng[0]), float(rng[1]))
        alias = t.get("alias", str, "the name of an input", default=None) if not is_input else None
        is_list = t.get("list", bool, "true for a tensor list (each case gives its tensors' shapes in lists)",
                        default=False)
        if is_list and (len(shape) != 1 or alias is not None):
            raise t.fail("shape", "one dim (the list's elements, flat) and no alias for a tensor list", shape)
        argument = False if is_input else t.get(
            "argument", bool, "true when the kernel also receives the in-place output as an argument", default=False)
        if argument and alias is None:
            raise t.fail("argument", "only with alias: an output of its own is always an argument", argument)
        judged = True if is_input else t.get("judged", bool, "false for an output the task does not compare",
                                             default=True)
        out.append(TensorSpec(name, dtypes.get(dtype_name), tuple(shape), value_range, alias, argument, is_list,
                              judged))
    if not is_input and not any(o.judged for o in out):
        raise r.fail(key, "at least one judged output (judged = false on every one)")
    return out


class _AnyDims(dict):  # type: ignore[type-arg]
    """Accepts every dim name, so expressions can be syntax-checked before cases are known."""

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> int:
        return 1


def _load_tolerances(r: _Reader) -> tuple[dict[str, Tolerance], str | None, int]:
    raw = r.get("tolerance", dict, "a table of per-dtype tolerances", default={})
    t = r.sub("tolerance", raw)
    t.unknown_keys({"float16", "bfloat16", "float32", "reduce_dim", "reduce_base"})
    tolerances = {k: Tolerance(rtol=v[0], atol=v[1]) for k, v in DEFAULT_TOLERANCES.items()}
    for name in ("float16", "bfloat16", "float32"):
        if name in raw:
            entry = t.get(name, dict, "{ rtol = <float>, atol = <float> }")
            e = t.sub(name, entry)
            e.unknown_keys({"rtol", "atol"})
            rtol = e.get("rtol", float | int, "a non-negative number")
            atol = e.get("atol", float | int, "a non-negative number")
            if rtol < 0 or atol < 0:
                raise e.fail("rtol", "non-negative rtol and atol", (rtol, atol))
            tolerances[name] = Tolerance(float(rtol), float(atol))
    reduce_dim = t.get("reduce_dim", str, "the name of the inner (reduced) dim", default=None)
    reduce_base = t.get("reduce_base", int, "a positive int", default=256)
    if reduce_base <= 0:
        raise t.fail("reduce_base", "a positive int", reduce_base)
    return tolerances, reduce_dim, reduce_base


def _load_limits(r: _Reader, keys: tuple[str, ...] = LIMIT_KEYS) -> dict[str, float]:
    raw = r.get("limits", dict, "a table of limits", default={})
    t = r.sub("limits", raw)
    t.unknown_keys(set(keys))
    limits = {}
    for k in raw:
        v = t.get(k, int | float, "a positive number")
        if v <= 0:
            raise t.fail(k, "a positive number", v)
        if k == "source_bytes" and not (isinstance(v, int) and v <= MAX_TASK_SOURCE_BYTES):
            raise t.fail(k, f"a whole number of bytes, at most {MAX_TASK_SOURCE_BYTES}", v)
        limits[k] = float(v)
    return limits


def _load_cases(r: _Reader, tensors: tuple[TensorSpec, ...], attributes: Mapping[str, Any],
                task_limits: Mapping[str, float]) -> list[CaseSpec]:
    items = r.get("cases", list, "an array of [[cases]] tables")
    if not items:
        raise r.fail("cases", "at least one [[cases]] table")
    needed = set().union(*(_dim_names(d) for t in tensors for d in t.shape))
    cases, seen = [], set()
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise r.fail(f"cases[{i}]", "a table", item)
        c = r.sub(f"cases[{i}]", item)
        c.unknown_keys({"name", "dims", "seed", "attributes", "limits", "lists"})
        name = c.get("name", str, "a unique case name")
        if name in seen or not re.match(r"^[A-Za-z0-9_.-]+$", name):
            raise c.fail("name", "a unique name of letters, digits, '_', '-', '.'", name)
        seen.add(name)
        dims = c.get("dims", dict, "a table of dim values, e.g. { N = 1024 }", default={})
        for k, v in dims.items():
            if not _IDENT.match(k) or not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise c.fail(f"dims.{k}", "a non-negative int under a C identifier", v)
        missing = sorted(needed - set(dims))
        if missing:
            raise c.fail("dims", f"values for every dim the shapes use ({', '.join(sorted(needed))})",
                         dims)
        seed = c.get("seed", int, "an int seed for the listed inputs", default=i)
        case_attrs = c.get("attributes", dict, "a table overriding task attributes", default={})
        unknown = sorted(set(case_attrs) - set(attributes))
        if unknown:
            raise c.fail(f"attributes.{unknown[0]}", "an attribute declared in [attributes]", unknown[0])
        case_limits = _load_limits(c, CASE_LIMIT_KEYS)
        lists = _load_lists(c, tensors)
        case = CaseSpec(name=name, dims=dims, seed=seed, attributes={**attributes, **case_attrs},
                        limits={**{k: v for k, v in task_limits.items() if k in CASE_LIMIT_KEYS}, **case_limits},
                        lists=lists)
        for t in tensors:
            try:
                shape = case.shape_of(t)
            except (KeyError, ValueError, ZeroDivisionError) as exc:
                raise c.fail("dims", f"dims that give tensor {t.name!r} a valid shape", str(exc)) from None
            if any(d < 0 for d in shape):
                raise c.fail("dims", f"a non-negative shape for tensor {t.name!r}", shape)
            if t.list and sum(math.prod(s) for s in lists[t.name]) != shape[0]:
                raise c.fail(f"lists.{t.name}", f"tensors with {shape[0]} elements in all (the list's shape)",
                             [list(s) for s in lists[t.name]])
        cases.append(case)
    return cases


def _load_lists(c: _Reader, tensors: tuple[TensorSpec, ...]) -> dict[str, tuple[tuple[int, ...], ...]]:
    """The case's ``lists = { x = [[2, 3], [5]] }``: the shape of each tensor of each tensor list."""
    raw = c.get("lists", dict, "a table of tensor list -> the shapes of its tensors", default={})
    names = {t.name for t in tensors if t.list}
    unknown = sorted(set(raw) - names)
    if unknown:
        raise c.fail(f"lists.{unknown[0]}", "the name of a tensor declared with list = true", unknown[0])
    missing = sorted(names - set(raw))
    if missing:
        raise c.fail("lists", f"the shapes of the tensors of every tensor list ({', '.join(sorted(names))})",
                     sorted(raw))
    out = {}
    for name, shapes in raw.items():
        ok = isinstance(shapes, list) and shapes and all(
            isinstance(s, list) and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in s)
            for s in shapes)
        if not ok:
            raise c.fail(f"lists.{name}", "a non-empty list of shapes (lists of non-negative ints)", shapes)
        out[name] = tuple(tuple(s) for s in shapes)
    return out


def folder_digest(folder: Path) -> str:
    """sha256 over relative paths and contents of every file, ignoring caches."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if "__pycache__" in rel or rel.endswith(".pyc"):
            continue
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# Static variants

#: A dynamic task with ``[extra] static_case`` also exists as ``<slug>_static`` (splits.STATIC_SUFFIX).


def static_variant(task: Task) -> Task | None:
    """The static twin of a dynamic task: its one ``static_case``, with shapes that may be hard-coded.

    NPUKernelBench scores static and dynamic shapes separately; deriving the static variant
    from the dynamic folder keeps one specification, one reference and one expert kernel per
    operator instead of two copies that drift apart. Its version is derived from the parent's,
    so editing the folder makes new versions of both.
    """
    name = task.extra.get("static_case")
    if task.shape_mode != "dynamic" or not name or task.variant_of is not None:
        return None
    case = next(c for c in task.cases if c.name == name)
    version = hashlib.sha256(f"{task.version}:static:{name}".encode()).hexdigest()
    title = re.sub(r"\bdynamic (length|shapes?)\b|\bdynamic (?=\[)|,\s*dynamic\s*(?=,|$)", "", task.title)
    title = re.sub(r"\s*,(\s*,)+", ",", title).strip(" ,")
    return dataclasses.replace(
        task, slug=task.slug + STATIC_SUFFIX, title=f"{title}, static shape", shape_mode="static",
        cases=(case,), version=version, variant_of=task.slug,
    )


def _with_variants(task: Task) -> list[Task]:
    variant = static_variant(task)
    return [task] if variant is None else [task, variant]


# ---------------------------------------------------------------------------------------------
# Suites


def suite_dir() -> Path:
    """The suite folder: ``AKGEN_SUITE_DIR`` if set, else the packaged npukb suite."""
    return Path(os.environ.get("AKGEN_SUITE_DIR") or DEFAULT_SUITE_DIR)


def list_task_dirs(root: Path | None = None) -> list[Path]:
    root = root or suite_dir()
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "task.toml").is_file())


@dataclass(frozen=True, slots=True)
class SuiteLoad:
    tasks: tuple[Task, ...]
    errors: tuple[TaskFormatError, ...]


def load_suite(root: Path | None = None) -> SuiteLoad:
    """Load every task of a suite, collecting format errors instead of stopping at the first."""
    tasks: list[Task] = []
    errors = []
    for folder in list_task_dirs(root):
        try:
            tasks.extend(_with_variants(load_task(folder)))
        except TaskFormatError as exc:
            errors.append(exc)
    seen: dict[str, Task] = {}
    for task in tasks:
        if task.slug in seen:  # a folder named like another task's derived static variant
            errors.append(TaskFormatError(str(task.root / "task.toml"), "slug",
                                          f"a slug other than {task.slug!r}, which is the static variant of "
                                          f"{(seen[task.slug].variant_of or task.variant_of)!r}", task.slug))
        seen.setdefault(task.slug, task)
    return SuiteLoad(tuple(seen.values()), tuple(errors))


@lru_cache(maxsize=512)
def _cached_task(folder: str, mtime_key: tuple[float, ...]) -> Task:
    return load_task(Path(folder))


def get_task(slug: str, root: Path | None = None) -> Task:
    """Find one task by slug (a folder, or a folder's derived static variant)."""
    root = root or suite_dir()
    folder = root / slug
    if _SLUG.match(slug) and not (folder / "task.toml").is_file() and slug.endswith(STATIC_SUFFIX):
        parent = slug[: -len(STATIC_SUFFIX)]
        if parent and (root / parent / "task.toml").is_file():
            variant = static_variant(get_task(parent, root))
            if variant is not None:
                return variant
    if not _SLUG.match(slug) or not (folder / "task.toml").is_file():
        raise UnknownTaskError(slug, [p.name for p in list_task_dirs(root)])
    stamp = tuple(p.stat().st_mtime_ns for p in sorted(folder.rglob("*")) if p.is_file())
    return _cached_task(str(folder.resolve()), stamp)
