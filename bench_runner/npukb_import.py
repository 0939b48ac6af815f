"""NPUKernelBench as an akgen suite: `akgen suite import-npukb DIR --out SUITE`.

Why: NPUKernelBench (public, Apache-2.0) is the paper's benchmark; its tasks are CANN op
projects with a torch reference, and akgen should judge models on them as they are written,
not only on its own re-written suite. The import reads a checkout the user points at (never
bundled here), writes akgen task folders into a directory of the user's, and copies each task's
own validation files (``module.py``, ``prepare_inputs.py``) next to a generated
``reference.py`` that calls them; the import and the reference therefore run NPUKernelBench's
Python (torch on the CPU, ``torch_npu`` imports removed) in the evaluator's own process, which is
trusted benchmark code, never a submission.

How a task maps (per NPUKernelBench task folder ``tasks/level<N>/<Category>/<Name>/``):

* the answer's op project: ``op_kernel/<op>.cpp`` is the expert kernel (other op_kernel files
  become the task's shared headers), ``op_host/*`` is the host bundle (op_project.py): the fixed
  host of the device_only path, the expert's on host_device;
* ``validation/test_cases.csv`` rows are the cases; ``prepare_inputs.get_inputs(row)`` draws the
  inputs (seeded per trial); the task's own ``pybind.cpp`` says which value fills which OpDef
  input and attribute and which outputs are judged (npukb_pybind runs it, npukb_plan reads it;
  the values in order, inputs then attributes, where the binding cannot be built);
* inputs ``ModelNew`` computes before its call (GeluGrad's ``gelu(x)``) are drawn by running it
  to that call (``npukb_plan.Plan.from_call``);
* one akgen task per OpDef dtype combination (the column whose inputs *and* outputs are the
  case's) and tensor ranks the cases use (the op build compiles one kernel per combination;
  akgen tasks have one dtype and rank per tensor), named ``<op>_<dtype>`` (``_<ranks>`` when the
  ranks differ within a combination, the outputs' dtypes when columns share the input's);
* the answer's op-API layer (``aclnn_*``, level-0 wrappers) stays out of the host bundle
  (``op_project.op_build_files``);
* the golden is ``Model().forward(...)`` in torch on the CPU, cast to the OpDef's output dtype
  (npukb_reference); outputs the binding allocates but does not return are ``judged = false``;
* outputs are judged as NPUKernelBench's runner judges them: by the task's own
  ``custom_check_precision`` where its prepare_inputs has one, else by the benchmark's rule
  (``npukb_validation.check_precision``) at the checkout's tolerance (``base_config.yaml``, 1e-3) — the
  generated reference's ``check`` (bench_runner/reference.py); the task's ``[tolerance]`` holds
  the same tolerance, for the figures akgen reports beside the verdict.

What does not map is skipped with a reason (printed and in the report): operands the binding
passes that do not line up with the OpDef, optional inputs it leaves out, dtypes akgen tasks do
not have (complex, double, uint16/32/64), list-valued attributes, tasks whose reference cannot
run on the CPU.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_runner import dtypes, npukb_plan, npukb_pybind, op_project
from bench_runner.npukb_validation import (
    akgen_dtype,
    draw,
    load_validation,
    read_cases,
    read_tolerance,
    split_results,
)
from bench_runner.op_project import OpDefTensor

#: ge::DataType names -> akgen dtype names (bench_runner/dtypes.py), derived from op_project's
#: ge -> C type table; the others (uint16/32/64, double, complex) are skipped.
GE_TO_AKGEN = {ge: d for ge, cpp in op_project.GE_CTYPES.items() for d in dtypes.NAMES if dtypes.get(d).cpp == cpp}
_SHORT = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "int8": "int8", "uint8": "uint8",
          "int16": "int16", "int32": "int32", "int64": "int64", "bool": "bool"}
_ENTRY = re.compile(r'extern\s*"C"\s+__global__\s+__aicore__\s+void\s+([A-Za-z_]\w*)\s*\(([^)]*)\)', re.S)


#: Cases larger than this (elements of all tensors) are left out. It is above NPUKernelBench's
#: largest (the Foreach lists, 268,539,811 elements in all), so every case is imported: such a case
#: takes a minute or two on one core, its listed trial alone (evaluate.HUGE_CASE_ELEMENTS).
MAX_CASE_ELEMENTS = 1 << 29
#: Cases above these many elements get longer run limits than the sandbox's defaults.
LARGE_CASE_ELEMENTS = 1 << 22
LARGE_CASE_LIMITS = {"run_wall_s": 120, "run_cpu_s": 240, "run_memory_mb": 8192}
HUGE_CASE_ELEMENTS = 1 << 26
HUGE_CASE_LIMITS = {"run_wall_s": 600, "run_cpu_s": 1200, "run_memory_mb": 16384}
#: The longest kernel or host source an imported task accepts (the task's ``[limits]``). The
#: benchmark sets none; its own answers reach 160 KiB (the L3 GEMMs carry Catlass expanded into
#: one file), past akgen's 64 KiB default, and a model's answer may be as long as theirs.
SOURCE_BYTES = 256 * 1024


#: The import's report, written into the suite folder (`akgen suite import-npukb`).
REPORT_FILE = "import-report.json"


class ImportSkip(Exception):
    """A task (or case) that cannot be expressed as an akgen task; the message says why."""


@dataclass
class TaskImport:
    name: str  # NPUKernelBench's task folder name (Equal)
    level: int
    slugs: list[str] = field(default_factory=list)
    skipped: str | None = None
    dropped_cases: list[str] = field(default_factory=list)
    #: How the cases were routed onto the op: "pybind.cpp" (its binding, run by npukb_pybind), or
    #: "positional: <why the binding could not be built>" (npukb_plan.positional_plan).
    binding: str = "pybind.cpp"
    #: Cases the binding was built for but could not route (the shim stopped, or the plan it gave
    #: does not fit the OpDef): "c3: <why>"; they were routed by position instead.
    positional_cases: list[str] = field(default_factory=list)


@dataclass
class ImportReport:
    tasks: list[TaskImport] = field(default_factory=list)

    def by_level(self) -> dict[int, dict[str, int]]:
        out: dict[int, dict[str, int]] = defaultdict(lambda: {"tasks": 0, "imported": 0, "akgen_tasks": 0})
        for t in self.tasks:
            row = out[t.level]
            row["tasks"] += 1
            row["imported"] += bool(t.slugs)
            row["akgen_tasks"] += len(t.slugs)
        return dict(sorted(out.items()))

    def skip_reasons(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for t in self.tasks:
            if t.skipped:
                counts[t.skipped.split(":")[0]] += 1
        return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def find_tasks(root: Path) -> Iterator[Path]:
    """NPUKernelBench task folders under ``root`` (a checkout, or its ``tasks/`` folder)."""
    base = root / "tasks" if (root / "tasks").is_dir() else root
    for level in sorted(base.glob("level*")):
        for folder in sorted(level.glob("*/*")):
            if (folder / "answer").is_dir() and (folder / "validation").is_dir():
                yield folder


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


@dataclass
class _Case:
    name: str
    row: dict[str, Any]
    combo: int
    shapes: dict[str, tuple[int, ...]]
    attrs: dict[str, Any]
    #: Per tensor list (a DYNAMIC OpDef input or output): each tensor's shape; its flat shape is in shapes.
    lists: dict[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    #: The dtypes of tensors whose OpDef types are computed in code (the case's own), by name.
    wild: tuple[tuple[str, str], ...] = ()
    #: Per OpDef input, what get_inputs gave (:func:`value_form`): the golden hands Model the same.
    forms: tuple[tuple[str, str], ...] = ()
    #: Where the case's values go (npukb_plan): the op's inputs and attributes, and Model.
    plan: npukb_plan.Plan | None = None
    #: Why the binding could not route this case, when its values went by position instead.
    fallback: str | None = None


@dataclass(frozen=True)
class _OpShape:
    """An answer's OpDef as the import uses it: inputs, attributes, the outputs as declared
    (``op_outs``) and as the task has them (``outs``, in-place ones renamed; ``aliases``)."""

    ins: list[OpDefTensor]
    attrs: list[tuple[str, str]]
    op_outs: list[OpDefTensor]
    outs: list[OpDefTensor]
    aliases: dict[str, tuple[str, bool]]


def import_task(folder: Path, out: Path, *, max_case_elements: int | None = None) -> TaskImport:
    """Write the akgen task(s) of one NPUKernelBench task folder into ``out``; cases of more
    elements than ``max_case_elements`` (default MAX_CASE_ELEMENTS) are dropped with their size."""
    level = int(re.sub(r"\D", "", folder.parent.parent.name) or 0)
    rec = TaskImport(folder.name, level)
    try:
        rec.slugs = _import(folder, out, rec, max_case_elements or MAX_CASE_ELEMENTS)
    except ImportSkip as exc:
        rec.skipped = str(exc)
    except Exception as exc:  # noqa: BLE001 - the benchmark's own Python failed: report, go on
        rec.skipped = f"reference fails on the CPU: {type(exc).__name__}: {str(exc)[:160]}"
    return rec


def _import(folder: Path, out: Path, rec: TaskImport, max_elements: int) -> list[str]:
    import numpy as np  # noqa: F401 - (the generated reference needs it; fail early here)
    import torch

    answer = folder / "answer" / "0"
    kernels = sorted((answer / "op_kernel").glob("*.cpp"))
    if len(kernels) != 1:
        raise ImportSkip(f"op_kernel files: {len(kernels)} .cpp files in the answer")
    kernel_text = kernels[0].read_text(encoding="utf-8")
    kernel_headers = [p for p in sorted((answer / "op_kernel").rglob("*")) if p.is_file() and p != kernels[0]]
    host_files = op_project.op_build_files(
        {p.name: p.read_text(encoding="utf-8") for p in sorted((answer / "op_host").iterdir())
         if p.is_file() and p.suffix in (".cpp", ".cc", ".h", ".hpp")})
    # One translation unit in bundle order: the file that registers the op (OP_ADD) last, after
    # the TilingFunc it names.
    host_files = dict(sorted(host_files.items(), key=lambda kv: ("OP_ADD(" in kv[1], kv[0])))
    host_cpps = [n for n in host_files if n.endswith((".cpp", ".cc"))]
    if not host_cpps:
        raise ImportSkip("op_host files: no .cpp file in the answer")
    bundle = op_project.make_bundle(host_files)
    try:
        op_project.split_host(bundle)
    except op_project.BundleError as exc:
        raise ImportSkip(f"op_host files: {exc}") from None
    host_text = "\n".join(host_files[n] for n in host_cpps)
    tensors, attrs = op_project.opdef_tensors(host_text), op_project.opdef_attrs(host_text)
    ins = [t for t in tensors if t.kind == "Input"]
    if not ins:
        raise ImportSkip("OpDef: no inputs found")
    pybind = folder / "validation" / "pybind.cpp"
    op_outs = [t for t in tensors if t.kind == "Output"]
    prepare, module = load_validation(folder / "validation")
    binding = None
    if not pybind.is_file():
        rec.binding = "positional: the task has no validation/pybind.cpp"
    else:
        try:
            binding = npukb_pybind.CompiledBinding(pybind)
        except npukb_pybind.PybindError as exc:
            rec.binding = f"positional: {exc}"
    rows = read_cases(folder / "validation" / "test_cases.csv")
    outs, aliases = in_place_outputs(
        ins, op_outs, lambda: _written_input(binding, rec.binding, rows, prepare, module, len(ins), torch))
    if any(k.startswith("List") or k == "?" for _, k in attrs):
        raise ImportSkip("list or untyped attributes")
    m = _ENTRY.search(kernel_text)
    if m is None:
        raise ImportSkip("kernel entry: no extern \"C\" __global__ __aicore__ function")
    entry, params = m[1], [p for p in m[2].split(",") if p.strip()]
    n_outs = sum(1 for t in outs if t.name not in aliases or aliases[t.name][1])
    if len(params) != len(ins) + n_outs + 2:
        raise ImportSkip(f"kernel entry: {len(params)} parameters for {len(ins)} inputs + {n_outs} outputs "
                         "+ workspace + tiling")

    ops = _OpShape(ins, attrs, op_outs, outs, aliases)
    cases: list[_Case] = []
    for row in rows:
        name = f"c{row.get('case_id', len(cases))}"
        try:
            cases.append(_case(name, row, prepare, module, ops, torch, max_elements, binding))
            if cases[-1].fallback:
                rec.positional_cases.append(f"{name}: {cases[-1].fallback}")
        except ImportSkip as exc:
            rec.dropped_cases.append(f"{name}: {exc}")
        except Exception as exc:  # noqa: BLE001 - this case's inputs or reference fail on the CPU
            rec.dropped_cases.append(f"{name}: reference fails on the CPU: {type(exc).__name__}: {str(exc)[:120]}")
    if not cases:
        raise ImportSkip(f"no usable case: {rec.dropped_cases[0] if rec.dropped_cases else 'test_cases.csv is empty'}")

    groups: dict[tuple[Any, ...], list[_Case]] = defaultdict(list)
    for c in cases:
        groups[(c.combo, tuple(len(c.shapes[t.name]) for t in ins + outs), c.wild, c.plan.signature())].append(c)
    by_combo: dict[int, int] = defaultdict(int)
    slugs = []
    for (combo, ranks, wild, _), group in sorted(groups.items(), key=lambda kv: kv[0][:3]):
        dtype = _dtype_of(ins[0], combo, wild)
        by_combo[combo] += 1
        slug = f"{snake(folder.name)}_{_SHORT[dtype]}"
        if any(_dtype_of(ins[0], k[0], k[2]) == dtype and k[0] != combo for k in groups):
            # several columns share the first input's dtype: name the outputs' too (cast_fp32_int32)
            slug += "".join(f"_{_SHORT[_dtype_of(t, combo, wild)]}" for t in outs)
        same = [k for k in groups if k[0] == combo]
        if len(same) > 1:  # one task per set of tensor ranks: "_2d", or "_2d_3d" when inputs differ
            slug += "_" + "_".join(f"{r}d" for r in dict.fromkeys(ranks))
            if sum(1 for k in same if tuple(dict.fromkeys(k[1])) == tuple(dict.fromkeys(ranks))) > 1:
                slug += f"_{by_combo[combo]}"
        _write_task(out / slug, slug, folder, rec.level, entry, ins, outs, attrs, combo, group, kernel_text,
                    kernel_headers, bundle, aliases)
        slugs.append(slug)
    return slugs


def in_place_outputs(ins: list[OpDefTensor], outs: list[OpDefTensor], written: Callable[[], int | None],
                     ) -> tuple[list[OpDefTensor], dict[str, tuple[str, bool]]]:
    """The akgen outputs of an OpDef, in-place ones included, and which input each in-place one
    lives in: ``{output: (input, is a kernel argument)}``.

    Two forms occur. An OpDef Output named like an Input (``var`` in, ``var`` out: a "ref") is
    handed to the kernel as an argument of its own that points at the input; akgen names it
    ``<input>_ref``. An OpDef with no Output at all (Sscal, Gemm's ``c``) writes an input that
    the benchmark's binding returns: ``written()`` says which (the binding run on a case,
    :func:`_written_input`); that input is the output, ``<input>_out``, and no kernel argument."""
    names = {t.name for t in ins}
    result: list[OpDefTensor] = []
    aliases: dict[str, tuple[str, bool]] = {}
    for t in outs:
        if t.name not in names:
            result.append(t)
            continue
        if t.dynamic:
            raise ImportSkip(f"OpDef: {t.name} is an in-place tensor list (akgen aliases single tensors only)")
        ref = OpDefTensor("Output", f"{t.name}_ref", t.ge_types, False)
        result.append(ref)
        aliases[ref.name] = (t.name, True)
    if result:
        return result, aliases
    index = written()
    if index is None:
        raise ImportSkip("OpDef: no outputs, and pybind.cpp returns none of the op's inputs")
    src = ins[index]
    if src.dynamic:
        raise ImportSkip(f"OpDef: {src.name} is an in-place tensor list (akgen aliases single tensors only)")
    out = OpDefTensor("Output", f"{src.name}_out", src.ge_types, False)
    return [out], {out.name: (src.name, False)}


def _written_input(binding: npukb_pybind.CompiledBinding | None, why: str | None, rows: list[dict[str, Any]],
                   prepare: Any, module: Any, n_inputs: int, torch: Any) -> int | None:
    """Which input an op with no OpDef outputs writes, as the benchmark's binding says on the
    first case it runs (the same on every case: the binding's code, not the values, decides)."""
    if binding is None:
        raise ImportSkip(f"OpDef: no outputs, and the binding that says which input the op writes "
                         f"cannot run ({why})")
    first_error = "test_cases.csv is empty"
    for k, row in enumerate(rows):
        try:
            torch.manual_seed(0)
            forward, init = draw(prepare, row)
            call = npukb_pybind.record_call(module, init, forward)
            return npukb_plan.written_input(binding.run(call), n_inputs)
        except Exception as exc:  # noqa: BLE001 - this case fails on the CPU; the next may not
            if k == 0:
                first_error = f"{type(exc).__name__}: {str(exc)[:160]}"
    raise ImportSkip(f"OpDef: no outputs, and no case runs through pybind.cpp to say which input the op "
                     f"writes ({first_error})")


def _case(name: str, row: dict[str, Any], prepare: Any, module: Any, ops: _OpShape, torch: Any,
          max_elements: int, binding: npukb_pybind.CompiledBinding | None) -> _Case:
    ins, outs, attrs, aliases = ops.ins, ops.outs, ops.attrs, ops.aliases
    torch.manual_seed(0)
    forward, init = draw(prepare, row)
    result = module.Model(*init)(*forward)
    results = split_results(result, [t.dynamic for t in outs])
    plan, why, call = None, None, None
    if binding is not None:
        try:
            call = npukb_pybind.record_call(module, init, forward)
            plan = npukb_plan.binding_plan(ins, attrs, ops.op_outs, outs, aliases, forward, init, call,
                                           binding.run(call), len(results), torch)
        except (npukb_plan.PlanSkip, npukb_pybind.PybindError) as exc:
            why = str(exc)
    if plan is None:
        # The binding's routing is the truth; where the shim cannot follow it, the values in order
        # (what NPUKernelBench's files mostly do) — and the binding's reason if that fails too.
        try:
            plan = npukb_plan.positional_plan(ins, attrs, outs, forward, init, len(results), torch)
        except npukb_plan.PlanSkip as exc:
            raise ImportSkip(why or str(exc)) from None
    values = forward + init
    tensors = [call.args[plan.from_call[j]] if i == npukb_plan.FROM_CALL and call is not None else values[i]
               for j, i in enumerate(plan.inputs)]
    lists: dict[str, tuple[tuple[int, ...], ...]] = {}
    for t, v in zip(ins, tensors, strict=True):
        if isinstance(v, (list, tuple)):
            if not t.dynamic:
                raise ImportSkip(f"input {t.name}: a list of tensors for an OpDef input that is not DYNAMIC")
            lists[t.name] = _list_shapes(t.name, v, torch)
    kinds: list[str | None] = []
    for t, v in zip(ins, tensors, strict=True):
        first = v[0] if isinstance(v, (list, tuple)) else v
        if isinstance(first, torch.Tensor) and akgen_dtype(first.dtype) is None:
            raise ImportSkip(f"input {t.name}: {first.dtype} is not an akgen dtype")
        kinds.append(akgen_dtype(first.dtype) if isinstance(first, torch.Tensor) else None)
    out_kinds = [_result_kind(t, plan, results, torch) for t in outs]
    try:  # the column whose outputs are also the case's (Cast: one input dtype, many outputs)
        combo = _combination([*ins, *outs], [*kinds, *out_kinds])
    except ImportSkip:
        combo = _combination(ins, kinds)
    shapes = {t.name: (sum(math.prod(s) for s in lists[t.name]),) if t.name in lists else
              (tuple(v.shape) if isinstance(v, torch.Tensor) and v.dim() > 0 else (1,))
              for t, v in zip(ins, tensors, strict=True)}
    wild = {t.name: k or "float32" for t, k in zip(ins, kinds, strict=True) if not t.ge_types}
    for t in outs:
        index = plan.results[t.name]
        r = results[index] if index is not None else None
        if t.dynamic:
            if r is None:
                raise ImportSkip(f"output {t.name}: a tensor list pybind.cpp does not return")
            lists[t.name] = _list_shapes(t.name, r, torch)
            shapes[t.name] = (sum(math.prod(s) for s in lists[t.name]),)
        elif r is not None and not isinstance(r, torch.Tensor):
            raise ImportSkip(f"output {t.name}: Model returns {type(r).__name__}")
        else:
            made = plan.out_shapes[t.name]
            own = (tuple(r.shape) if r.dim() > 0 else (1,)) if r is not None else None
            if made is not None and own is not None and math.prod(made) != math.prod(own):
                raise ImportSkip(f"output {t.name}: Model returns shape {own} where pybind.cpp allocates {made}")
            shapes[t.name] = made or own  # type: ignore[assignment]
        if t.name in aliases and math.prod(shapes[t.name]) != math.prod(shapes[aliases[t.name][0]]):
            raise ImportSkip(f"output {t.name}: shape {shapes[t.name]} for the in-place input "
                             f"{aliases[t.name][0]} of shape {shapes[aliases[t.name][0]]}")
        if t.name in aliases:  # the input's buffer, in the input's shape (a view Model returns may differ)
            shapes[t.name] = shapes[aliases[t.name][0]]
        if not t.ge_types:
            first = (r[0] if isinstance(r, list) else r) if r is not None else None
            wild[t.name] = (akgen_dtype(first.dtype) if first is not None else
                            plan.out_dtypes.get(t.name, "") if plan.out_dtypes.get(t.name) in dtypes.NAMES else "") or ""
            if not wild[t.name]:
                raise ImportSkip(f"output {t.name}: its dtype is not an akgen dtype")
    elements = sum(math.prod(s) for n, s in shapes.items() if n not in aliases)
    if elements > max_elements:
        raise ImportSkip(f"larger than {max_elements} elements in all ({elements})")
    return _Case(name, row, combo, shapes, plan.attrs, lists, tuple(sorted(wild.items())),
                 tuple(value_form(v, torch) for v in tensors), plan, why)


def value_form(value: Any, torch: Any) -> tuple[str, str]:
    """How an input value came from get_inputs, so the golden can give Model the same kind of
    value the import saw: ("py", "float"|"int"|"bool") for a Python number, ("tensor0", dtype) for
    a 0-d tensor, ("tensor", dtype), ("tensor_grad", dtype) for one that requires grad (a
    backward reference differentiates through it: GeGluGradV2), or ("list", dtype) for a tensor
    list. An OpDef input is stored in the OpDef's dtype; Model still gets, say, lerp's Python
    weight or an fp16 tensor."""
    if isinstance(value, (list, tuple)):
        return ("list", str(value[0].dtype).removeprefix("torch.")) if value else ("list", "")
    if isinstance(value, torch.Tensor):
        kind = "tensor0" if value.dim() == 0 else "tensor_grad" if value.requires_grad else "tensor"
        return (kind, str(value.dtype).removeprefix("torch."))
    return ("py", "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "float")


def _list_shapes(name: str, value: Any, torch: Any) -> tuple[tuple[int, ...], ...]:
    """The shape of each tensor of a tensor list (a 0-d tensor counts as one element)."""
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(v, torch.Tensor) for v in value):
        raise ImportSkip(f"tensor list {name}: expected a non-empty list of tensors")
    if len({v.dtype for v in value}) != 1:
        raise ImportSkip(f"tensor list {name}: tensors of several dtypes")
    return tuple(tuple(v.shape) if v.dim() > 0 else (1,) for v in value)


def _result_kind(t: OpDefTensor, plan: npukb_plan.Plan, results: list[Any], torch: Any) -> str | None:
    """The akgen dtype of output ``t`` in this case: as the binding allocates it, else as Model
    returns it (None when neither says)."""
    made = plan.out_dtypes.get(t.name)
    if made in dtypes.NAMES:
        return made
    index = plan.results.get(t.name)
    r = results[index] if index is not None and index < len(results) else None
    first = r[0] if isinstance(r, (list, tuple)) and r else r
    return akgen_dtype(first.dtype) if isinstance(first, torch.Tensor) else None


def _combination(ins: list, kinds: list[str | None]) -> int:
    """The OpDef combination whose tensors' dtypes are those the case's tensors have (a None
    kind matches any)."""
    width = max(1, *(len(t.ge_types) for t in ins))
    for i in range(width):
        ok = True
        for t, d in zip(ins, kinds, strict=True):
            if not t.ge_types:
                continue  # types the OpDef computes in code: the case's own (wild_dtypes)
            ge = t.ge_types[i] if i < len(t.ge_types) else t.ge_types[0]
            want = GE_TO_AKGEN.get(ge or "")
            if want is None:
                ok = False
                break
            if d is not None and d != want:
                ok = False
                break
        if ok:
            return i
    raise ImportSkip(f"dtypes {kinds} are no OpDef combination akgen can run")


def _dtype_of(t: Any, combo: int, wild: tuple[tuple[str, str], ...] = ()) -> str:
    if not t.ge_types and t.name in dict(wild):
        return dict(wild)[t.name]
    if not t.ge_types:
        raise ImportSkip(f"tensor {t.name}: no dtype in its OpDef and none from the cases")
    ge = t.ge_types[combo] if combo < len(t.ge_types) else t.ge_types[0]
    if ge not in GE_TO_AKGEN:
        raise ImportSkip(f"tensor {t.name}: {ge} is not an akgen dtype")
    return GE_TO_AKGEN[ge]


_CORE_SPECIALISATION = re.compile(r"<\s*(?:AscendC\s*::\s*)?(AIC|AIV)\s*>\s*\(")
_TASK_TYPE = re.compile(r"KERNEL_TASK_TYPE_DEFAULT\s*\(\s*KERNEL_TYPE_(AIC_ONLY|AIV_ONLY)\s*\)")


def kernel_mode(kernel: str) -> str:
    """How the answer's op build launches its kernel: "aic", "mix" or "aiv" (task.toml).

    bisheng compiles a kernel once per core type its code needs: a Catlass kernel specialises
    its ``operator()`` for ``AscendC::AIC`` (a cube-only GEMM, launched on the AI cube cores) or
    for both (a MIX launch: each block one AIC and two AIVs); ``KERNEL_TASK_TYPE_DEFAULT`` says
    it outright. Any other kernel is vector code on the AIV cores.
    """
    declared = _TASK_TYPE.search(kernel)
    if declared:
        return "aic" if declared[1] == "AIC_ONLY" else "aiv"
    cores = set(_CORE_SPECIALISATION.findall(kernel))
    if cores == {"AIC"}:
        return "aic"
    return "mix" if cores == {"AIC", "AIV"} else "aiv"


def _write_task(dest: Path, slug: str, folder: Path, level: int, entry: str, ins: list, outs: list, attrs: list,
                combo: int, cases: list[_Case], kernel_text: str, kernel_headers: list[Path], bundle: str,
                aliases: dict[str, tuple[str, bool]]) -> None:
    wild, plan = cases[0].wild, cases[0].plan
    assert plan is not None
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "template").mkdir(parents=True)
    (dest / "expert").mkdir()
    (dest / "npukb").mkdir()
    lines = [
        f"# Imported from NPUKernelBench {folder.parent.parent.name}/{folder.parent.name}/{folder.name} by "
        "`akgen suite import-npukb` (bench_runner/npukb_import.py).",
        "format = 1",
        f"slug = {json.dumps(slug)}",
        f"title = {json.dumps(f'{folder.name} (NPUKernelBench L{level}), {_dtype_of(ins[0], combo, wild)}')}",
        f"level = {max(1, min(3, level))}",
        f"category = {json.dumps(snake(folder.parent.name))}",
        'shape_mode = "dynamic"',
        f"entry = {json.dumps(entry)}",
        'paths = ["device_only", "host_device"]',
        'block_dim = "host"',
        "tiling = true",
        "workspace = true",
        "every_case = true",  # scored per case: passed cases / all cases
        f"kernel_mode = {json.dumps(kernel_mode(kernel_text))}",
        "",
    ]
    dims_of: dict[str, list[str]] = {}
    for kind, group in (("inputs", ins), ("outputs", outs)):
        for t in group:
            alias, argument = aliases.get(t.name, (None, False))
            if alias is None:
                rank = len(cases[0].shapes[t.name])
                dims_of[t.name] = [f"{t.name}_d{i}" for i in range(rank)]
            lines += [f"[[{kind}]]", f"name = {json.dumps(t.name)}", f"dtype = {json.dumps(_dtype_of(t, combo, wild))}",
                      f"shape = {json.dumps(dims_of[alias or t.name])}", *(["list = true"] if t.dynamic else []),
                      *([f"alias = {json.dumps(alias)}"] if alias else []), *(["argument = true"] if argument else []),
                      *(["judged = false"] if kind == "outputs" and plan.results[t.name] is None else []), ""]
    if attrs:
        lines.append("[attributes]")
        lines += [f"{a} = {_toml(cases[0].attrs[a])}" for a, _ in attrs]
        lines.append("")
    precision = read_tolerance(folder.parents[3])
    floats = sorted({_dtype_of(t, combo, wild) for t in outs} & {"float16", "bfloat16", "float32"})
    if floats:
        lines.append("[tolerance]")
        lines += [f"{d} = {{ rtol = {precision['max_rel_error']}, atol = {precision['max_abs_error']} }}"
                  for d in floats]
        lines.append("")
    lines += ["[limits]", f"source_bytes = {SOURCE_BYTES}", ""]
    table = {}
    for c in cases:
        dims = {d: c.shapes[name][i] for name, ds in dims_of.items() for i, d in enumerate(ds)}
        lines += ["[[cases]]", f"name = {json.dumps(c.name)}",
                  "dims = { " + ", ".join(f"{k} = {v}" for k, v in dims.items()) + " }",
                  f"seed = {len(table) + 1}"]
        elements = sum(math.prod(s) for n, s in c.shapes.items() if n not in aliases)
        if elements > LARGE_CASE_ELEMENTS:
            limits = HUGE_CASE_LIMITS if elements > HUGE_CASE_ELEMENTS else LARGE_CASE_LIMITS
            lines.append("limits = { " + ", ".join(f"{k} = {v}" for k, v in limits.items()) + " }")
        if c.lists:
            lines.append("lists = { " + ", ".join(f"{k} = {json.dumps([list(s) for s in v])}"
                                                  for k, v in c.lists.items()) + " }")
        extra = {k: v for k, v in c.attrs.items() if v != cases[0].attrs.get(k)}
        if extra:
            lines.append("attributes = { " + ", ".join(f"{k} = {_toml(v)}" for k, v in extra.items()) + " }")
        lines.append("")
        table[c.name] = c.row
    lines += ["[extra]", f"npukb = {json.dumps(f'{folder.parent.name}/{folder.name}')}", ""]
    (dest / "task.toml").write_text("\n".join(lines), encoding="utf-8")
    shutil.copyfile(folder / "validation" / "module.py", dest / "npukb" / "module.py")
    shutil.copyfile(folder / "validation" / "prepare_inputs.py", dest / "npukb" / "prepare_inputs.py")
    (dest / "npukb" / "cases.json").write_text(json.dumps(table, indent=1, sort_keys=True), encoding="utf-8")
    spec = {"inputs": [[t.name, _dtype_of(t, combo, wild)] for t in ins],
            "outputs": [[t.name, _dtype_of(t, combo, wild)] for t in outs],
            "attrs": [a for a, _ in attrs], "lists": [t.name for t in ins + outs if t.dynamic],
            "positions": list(plan.inputs), "from_call": {str(j): k for j, k in plan.from_call.items()},
            "n_forward": plan.n_forward, "sources": [list(s) for s in plan.sources],
            "results": plan.results, "precision": precision, "forms": [list(f) for f in cases[0].forms]}
    (dest / "npukb" / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    values = {c.name: {str(k): v for k, v in c.plan.values.items()} for c in cases if c.plan and c.plan.values}
    (dest / "npukb" / "values.json").write_text(json.dumps(values, sort_keys=True), encoding="utf-8")
    (dest / "reference.py").write_text(_REFERENCE, encoding="utf-8")
    desc = folder / "api_desc.md"
    (dest / "api_desc.md").write_text(desc.read_text(encoding="utf-8") if desc.is_file() else f"{folder.name}\n",
                                      encoding="utf-8")
    question = sorted((folder / "question" / "op_kernel").glob("*.cpp")) if (folder / "question").is_dir() else []
    (dest / "template" / "kernel.cpp").write_text(question[0].read_text(encoding="utf-8") if question else kernel_text,
                                                  encoding="utf-8")
    (dest / "template" / "host.cpp").write_text(bundle, encoding="utf-8")
    (dest / "expert" / "kernel.cpp").write_text(kernel_text, encoding="utf-8")
    if kernel_headers:
        (dest / "template" / "include").mkdir()
        for h in kernel_headers:  # subfolders too (GeGluV2's op_kernel/tanh/*.h)
            target = dest / "template" / "include" / h.relative_to(folder / "answer" / "0" / "op_kernel")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(h, target)


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if v == v and abs(v) != float("inf") else json.dumps(str(v))
    if isinstance(v, int):
        return str(v)
    return json.dumps(str(v))


#: The reference every imported task gets: its folder bound to npukb_reference.TaskReference.
_REFERENCE = '''\
"""Golden model of an imported NPUKernelBench task: its own validation code (npukb/), in torch on
the CPU (bench_runner/npukb_reference.py). Generated by `akgen suite import-npukb`."""

from pathlib import Path

from bench_runner.npukb_reference import TaskReference

_REFERENCE = TaskReference(Path(__file__).resolve().parent)
#: golden() takes the inputs as stored, not as float64 copies (bench_runner/reference.py)
STORED_INPUTS = True


def make_inputs(case, rng):
    return _REFERENCE.make_inputs(case, rng)


def golden(inputs, attrs, case):
    return _REFERENCE.golden(inputs, attrs, case)


def check(expected, got, attrs, case):
    return _REFERENCE.check(expected, got, attrs, case)
'''


def import_suite(root: Path, out: Path, *, only: Sequence[str] = (), limit: int = 0,
                 on_task: Callable[[TaskImport], None] | None = None,
                 max_case_elements: int | None = None) -> ImportReport:
    """Import every task of the checkout at ``root`` into ``out`` (created); see the module doc."""
    out.mkdir(parents=True, exist_ok=True)
    report = ImportReport()
    wanted = {w.lower() for w in only}
    for folder in find_tasks(root):
        if wanted and folder.name.lower() not in wanted and snake(folder.name) not in wanted:
            continue
        if limit and len(report.tasks) >= limit:
            break
        rec = import_task(folder, out, max_case_elements=max_case_elements)
        report.tasks.append(rec)
        if on_task is not None:
            on_task(rec)
    return report
