"""The task's golden model: import its ``reference.py``, draw inputs, compute expected outputs.

A task's ``reference.py`` is trusted task data (reviewed like code), so it is imported in the
evaluator's process; kernels are never run here. Its contract:

* ``golden(inputs: dict[str, np.ndarray], attrs: dict) -> dict[str, np.ndarray]`` (required).
  Float inputs arrive as float64 (bfloat16 decoded); compute in float64 where it matters. A
  module that sets ``STORED_INPUTS = True`` gets them as stored instead (each input's own
  dtype, bfloat16 as its uint16 bits): a golden that computes in the inputs' own dtypes anyway
  (the NPUKernelBench import's torch Model) then holds no float64 copy of a 10^8-element case.
  Outputs may come back as float64 or in the output's stored form. A
  third parameter, if it has one, receives the case as ``make_inputs`` sees it (a task with
  tensor lists needs their shapes: ``case.lists``).
* ``make_inputs(case, rng) -> dict[str, np.ndarray]`` (optional). ``case`` has ``name``,
  ``dims``, ``attributes``, ``shapes`` (name -> tuple) and ``lists`` (tensor list -> the shape
  of each of its tensors; the list itself is one flat array, its tensors one after the other). Without it, inputs are drawn
  uniformly from each input's ``range`` (default [-1, 1], or [-8, 8] for integers).
* ``check(expected, got, attrs, case) -> bool | tuple[bool, str]`` (optional): the task's own
  precision rule, where the suite it comes from judges that way (NPUKernelBench's
  ``custom_check_precision``). ``expected`` and ``got`` map every output to an array, floats as
  float64 (the golden's convention). It replaces the ``[tolerance]`` comparison only: elements a
  kernel never wrote, NaN/Inf where the golden is finite (or the reverse) and inputs it modified
  still fail, whatever the check says.
"""

from __future__ import annotations

import importlib.util
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from bench_runner import dtypes
from bench_runner.errors import TaskFormatError
from bench_runner.tasks import CaseSpec, Task

_lock = threading.Lock()
_modules: dict[str, ModuleType] = {}


@dataclass(frozen=True, slots=True)
class CaseView:
    """What ``make_inputs`` sees of a case."""

    name: str
    dims: dict[str, int]
    attributes: dict[str, Any]
    shapes: dict[str, tuple[int, ...]]
    lists: dict[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)


def load_module(task: Task) -> ModuleType:
    """Import the task's reference.py once per task version; format errors name the function."""
    with _lock:
        mod = _modules.get(task.version)
        if mod is not None:
            return mod
        path = task.file("reference.py")
        spec = importlib.util.spec_from_file_location(f"akgen_reference_{task.slug}_{task.version[:12]}", path)
        if spec is None or spec.loader is None:
            raise TaskFormatError(str(path), "(module)", "an importable Python file")
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except Exception as exc:  # noqa: BLE001 - any import failure is a task-format problem
            raise TaskFormatError(str(path), "(import)", "a module that imports cleanly",
                                  f"{type(exc).__name__}: {exc}") from None
        if not callable(getattr(mod, "golden", None)):
            raise TaskFormatError(str(path), "golden", "a function golden(inputs, attrs) -> dict")
        for name, shape in (("make_inputs", "make_inputs(case, rng) -> dict"),
                            ("check", "check(expected, got, attrs, case) -> bool | (bool, str)")):
            fn = getattr(mod, name, None)
            if fn is not None and not callable(fn):
                raise TaskFormatError(str(path), name, f"a function {shape}")
        _modules[task.version] = mod
        return mod


def _takes_case(fn: Callable[..., Any]) -> bool:
    try:
        return len(inspect.signature(fn).parameters) >= 3
    except (TypeError, ValueError):
        return False


def case_view(task: Task, case: CaseSpec) -> CaseView:
    shapes = {t.name: case.shape_of(t) for t in task.inputs + task.outputs}
    return CaseView(case.name, dict(case.dims), dict(case.attributes), shapes, dict(case.lists))


def make_inputs(task: Task, case: CaseSpec, seed: int) -> dict[str, np.ndarray]:
    """Draw the inputs of one trial, stored in each input's dtype, C-contiguous."""
    mod = load_module(task)
    view = case_view(task, case)
    rng = np.random.default_rng(seed)
    custom: Callable[..., Any] | None = getattr(mod, "make_inputs", None)
    path = str(task.file("reference.py"))
    raw = _run(path, "make_inputs", custom, view, rng) if custom is not None else {}
    out: dict[str, np.ndarray] = {}
    for spec in task.inputs:
        shape = view.shapes[spec.name]
        if spec.name in raw:
            arr = np.asarray(raw[spec.name])
            if arr.shape != shape:
                raise TaskFormatError(path, "make_inputs", f"input {spec.name!r} of shape {shape}",
                                      arr.shape)
            out[spec.name] = _store(arr, spec.dtype)
            continue
        if custom is not None and raw:
            raise TaskFormatError(path, "make_inputs", f"a value for every input (missing {spec.name!r})")
        lo, hi = spec.value_range or ((-1.0, 1.0) if spec.dtype.is_float else (-8.0, 8.0))
        if spec.dtype.name == "bool":
            out[spec.name] = _in_steps(shape, np.dtype(np.bool_), lambda k: rng.random(k) < 0.5)
        elif spec.dtype.is_float:
            out[spec.name] = _in_steps(shape, spec.dtype.storage, lambda k, lo=lo, hi=hi, d=spec.dtype:
                                       dtypes.from_float64(rng.uniform(lo, hi, k), d))
        else:
            out[spec.name] = rng.integers(int(lo), int(hi), shape, endpoint=True).astype(spec.dtype.storage)
    return out


def _run(path: str, name: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Call the task's own ``name``; its failure is the task's (a :class:`TaskFormatError`
    naming the function and the error), never an evaluator crash."""
    try:
        return fn(*args)
    except TaskFormatError:
        raise
    except Exception as exc:  # noqa: BLE001 - trusted task code failed on this case
        raise TaskFormatError(path, name, f"a {name} that runs on this case",
                              f"{type(exc).__name__}: {str(exc)[:300]}") from None


#: Elements drawn per step by the default generator (its float64 draws stay this small).
DRAW_STEP = 1 << 18


def _in_steps(shape: tuple[int, ...], storage: np.dtype, draw: Callable[[int], np.ndarray]) -> np.ndarray:
    """``draw(n)`` for the whole shape, made as consecutive draws of DRAW_STEP elements each into
    the stored array, without a float64 array of the whole size.

    The same values as one draw: ``Generator.random`` and ``Generator.uniform`` take exactly one
    64-bit word per element, in order, so the stream does not depend on how it is split (integer
    draws buffer words across elements and are never split).
    """
    n = 1
    for d in shape:
        n *= d
    if n <= DRAW_STEP:
        return np.ascontiguousarray(draw(n), dtype=storage).reshape(shape)
    out = np.empty(n, dtype=storage)
    for start in range(0, n, DRAW_STEP):
        stop = min(n, start + DRAW_STEP)
        out[start:stop] = draw(stop - start)
    return out.reshape(shape)


def _store(arr: np.ndarray, dtype: dtypes.DType) -> np.ndarray:
    if arr.dtype == dtype.storage and dtype.name != "bfloat16":
        return np.ascontiguousarray(arr)
    if dtype.name == "bfloat16" and arr.dtype == np.uint16:
        return np.ascontiguousarray(arr)
    if not dtype.is_float and arr.dtype.kind in "biu":
        return np.ascontiguousarray(arr.astype(dtype.storage))
    return np.ascontiguousarray(dtypes.from_float64(np.asarray(arr, dtype=np.float64), dtype))


def golden(task: Task, case: CaseSpec, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Expected outputs, rounded to each output's dtype (the precision a kernel can deliver)."""
    mod = load_module(task)
    by_name = {t.name: t for t in task.inputs}
    if getattr(mod, "STORED_INPUTS", False):  # its own copies: a golden may write its inputs
        wide = {name: arr.copy() for name, arr in inputs.items()}
    else:
        wide = {
            name: dtypes.to_float64(arr, by_name[name].dtype) if by_name[name].dtype.is_float else arr.copy()
            for name, arr in inputs.items()
        }
    path = str(task.file("reference.py"))
    if _takes_case(mod.golden):
        result = _run(path, "golden", mod.golden, wide, dict(case.attributes), case_view(task, case))
    else:
        result = _run(path, "golden", mod.golden, wide, dict(case.attributes))
    if not isinstance(result, dict):
        raise TaskFormatError(path, "golden", "a dict of output name -> array", type(result).__name__)
    out = {}
    for spec in task.outputs:
        if spec.name not in result:
            raise TaskFormatError(path, "golden", f"an entry for output {spec.name!r}", sorted(result))
        arr = np.asarray(result[spec.name])
        shape = case.shape_of(spec)
        if arr.shape != shape:
            raise TaskFormatError(path, "golden", f"output {spec.name!r} of shape {shape}", arr.shape)
        out[spec.name] = _store(arr, spec.dtype)
    return out


@dataclass(frozen=True, slots=True)
class CheckVerdict:
    """What a task's own precision check said of one trial's outputs."""

    passed: bool
    message: str = ""


def has_check(task: Task) -> bool:
    """Whether the task judges its outputs with its own ``check`` instead of its tolerance."""
    return getattr(load_module(task), "check", None) is not None


def check(task: Task, case: CaseSpec, golden_out: dict[str, np.ndarray],
          got: dict[str, np.ndarray]) -> CheckVerdict:
    """Run the task's ``check`` on one trial (the golden and the kernel's outputs, as stored).

    The check is trusted task code but it sees a kernel's output, which may be anything: when it
    raises on that output yet accepts the golden, the output is what it could not judge, and the
    trial fails with the reason (as NPUKernelBench fails a case whose check raises). When it
    raises on the golden too, the task is broken: a :class:`TaskFormatError`.
    """
    mod = load_module(task)
    path = str(task.file("reference.py"))
    want = _wide(task, golden_out)
    try:
        return _verdict(path, mod.check(want, _wide(task, got), dict(case.attributes), case_view(task, case)))
    except TaskFormatError:
        raise
    except Exception as exc:  # noqa: BLE001 - judged below: the output's fault or the task's
        reason = f"{type(exc).__name__}: {exc}"
    try:
        mod.check(want, _wide(task, golden_out), dict(case.attributes), case_view(task, case))
    except Exception as exc:  # noqa: BLE001 - the check cannot judge its own golden
        raise TaskFormatError(path, "check", "a check that accepts the golden",
                              f"{type(exc).__name__}: {exc}") from None
    return CheckVerdict(False, f"the task's precision check could not judge the output ({reason[:300]})")


def _wide(task: Task, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    by_name = {t.name: t for t in task.outputs}
    return {name: dtypes.to_float64(arr, by_name[name].dtype) if by_name[name].dtype.is_float else arr
            for name, arr in arrays.items()}


def _verdict(path: str, value: Any) -> CheckVerdict:
    if isinstance(value, (bool, np.bool_)):
        return CheckVerdict(bool(value))
    if (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], (bool, np.bool_))
            and isinstance(value[1], str)):
        return CheckVerdict(bool(value[0]), value[1])
    raise TaskFormatError(path, "check", "a bool or a (bool, message) pair", type(value).__name__)
