"""NPUKernelBench's validation code, run on CPU torch: its task files loaded, cases read and
drawn, results split, and its default precision rule.

The benchmark's ``validation/`` folder holds each task's ``prepare_inputs.py`` (the case's
values), ``module.py`` (``Model``, the reference; ``ModelNew``, the call into the built op) and
``test_cases.csv``. They are written for torch_npu on an NPU host; this module loads them
without it (imports of torch_npu and kernel_gen_ops dropped, integer draws CPU torch refuses
made as the NPU's torch makes them) so the import (npukb_import) and each imported task's golden
(npukb_reference) run the benchmark's own code. Trusted benchmark code, never a submission.
"""

from __future__ import annotations

import csv
import io
import math
import re
import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench_runner import dtypes

#: NPUKernelBench's default tolerance (its base_config.yaml: max_abs_error = max_rel_error = 1e-3),


#: where a checkout's own base_config.yaml does not say.
TOLERANCE = 1e-3


_NPU_LINE = re.compile(r"^\s*(import\s+torch_npu\b.*|from\s+torch_npu\b.*|import\s+kernel_gen_ops\b.*)$", re.M)


def torch_dtype(name: str) -> Any:
    """The torch dtype of an akgen dtype name (the generated references use it too)."""
    import torch

    return getattr(torch, name)


def akgen_dtype(torch_type: Any) -> str | None:
    """The akgen dtype name of a torch dtype, or None when akgen tasks have no such dtype."""
    name = str(torch_type).removeprefix("torch.")
    return name if name in dtypes.NAMES else None


def load_validation(folder: Path) -> tuple[types.ModuleType, types.ModuleType]:
    """The task's prepare_inputs and module, importable without torch_npu or the built op."""
    return (_load(folder / "prepare_inputs.py", f"npukb_prepare_{id(folder)}"),
            _load(folder / "module.py", f"npukb_module_{id(folder)}"))


def _framework_stub() -> None:
    """Some prepare_inputs import NPUKernelBench's own ``framework.utils`` for ``check_precision``
    (their custom precision checks call it with their own tolerances): give them akgen's
    :func:`check_precision` instead of the benchmark's runner and its configuration."""
    if "framework.utils" in sys.modules:
        return
    pkg = types.ModuleType("framework")
    pkg.__path__ = []
    utils = types.ModuleType("framework.utils")
    utils.check_precision = check_precision  # type: ignore[attr-defined]
    pkg.utils = utils  # type: ignore[attr-defined]
    sys.modules.setdefault("framework", pkg)
    sys.modules.setdefault("framework.utils", utils)


def check_precision(outputs: Any, outputs_new: Any, max_abs_error: float,
                    max_rel_error: float) -> tuple[int, Any, Any]:
    """NPUKernelBench's default precision rule, as its runner applies it (written here from its
    behaviour): per output pair, computed in the outputs' own dtype, an element fails where its
    absolute difference exceeds ``max_abs_error`` *and* its difference relative to
    ``|expected| + 1e-7`` exceeds ``max_rel_error``; any NaN or infinity, in either output or in
    a difference, fails the case. Bool outputs compare as ints. Returns (1 or 0, the absolute
    differences, the relative ones), flat, as the benchmark's checks do."""
    import torch

    wants = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    gots = list(outputs_new) if isinstance(outputs_new, (list, tuple)) else [outputs_new]
    ok = True
    diffs, rels = [], []
    for want, got in zip(wants, gots, strict=False):
        if got.dtype == torch.bool:
            want, got = want.to(torch.int), got.to(torch.int)
        diff = torch.abs(want - got)
        rel = diff / (torch.abs(want) + 1e-7)
        diffs.append(diff.reshape(-1))
        rels.append(rel.reshape(-1))
        # A NaN or infinity in either output makes its difference non-finite too.
        if not (bool(torch.isfinite(diff).all()) and bool(torch.isfinite(rel).all())):
            ok = False
        if bool(((diff > max_abs_error) & (rel > max_rel_error)).any()):
            ok = False
    return int(ok), torch.cat(diffs) if diffs else torch.zeros(0), torch.cat(rels) if rels else torch.zeros(0)


_CONFIG_VALUE = re.compile(r"^\s*(max_abs_error|max_rel_error)\s*:\s*([0-9.eE+-]+)\s*$", re.M)


def read_tolerance(root: Path) -> dict[str, float]:
    """The checkout's precision tolerance (``base_config.yaml``: ``eval.max_abs_error`` and
    ``eval.max_rel_error``), NPUKernelBench's 1e-3 each where the file does not say."""
    base = root if (root / "base_config.yaml").is_file() else root.parent
    found = {"max_abs_error": TOLERANCE, "max_rel_error": TOLERANCE}
    path = base / "base_config.yaml"
    if path.is_file():
        for key, value in _CONFIG_VALUE.findall(path.read_text(encoding="utf-8")):
            found[key] = float(value)
    return found


#: torch's random draws that CPU torch refuses for integer dtypes ("normal_kernel_cpu" /


#: "check_uniform_bounds" not implemented for 'Int') and the NPU's torch draws.


_RNG_FUNCTIONS = ("randn", "rand", "normal", "randn_like", "rand_like")
_RNG_METHODS = ("normal_", "uniform_")


def _install_integer_draws() -> None:
    """Let NPUKernelBench's input generators draw integer tensors on CPU torch as on the NPU: the
    same draw in float32, cast to the integer dtype (truncation toward zero, as a float-to-int
    cast). Only calls CPU torch refuses change; installed once, before benchmark code loads."""
    import torch

    if getattr(torch, "_akgen_integer_draws", False):
        return

    def integral(dtype: Any) -> bool:
        return isinstance(dtype, torch.dtype) and not dtype.is_floating_point and not dtype.is_complex

    def function(original: Callable[..., Any]) -> Callable[..., Any]:
        def draw(*args: Any, **kwargs: Any) -> Any:
            dtype = kwargs.get("dtype")
            if not integral(dtype):
                return original(*args, **kwargs)
            return original(*args, **{**kwargs, "dtype": torch.float32}).to(dtype)
        return draw

    def method(original: Callable[..., Any]) -> Callable[..., Any]:
        def draw(self: Any, *args: Any, **kwargs: Any) -> Any:
            if not integral(self.dtype):
                return original(self, *args, **kwargs)
            with torch.no_grad():
                return self.copy_(original(torch.empty(self.shape, dtype=torch.float32), *args, **kwargs))
        return draw

    for name in _RNG_FUNCTIONS:
        setattr(torch, name, function(getattr(torch, name)))
    for name in _RNG_METHODS:
        setattr(torch.Tensor, name, method(getattr(torch.Tensor, name)))
    torch._akgen_integer_draws = True  # type: ignore[attr-defined]


def _load(path: Path, name: str) -> types.ModuleType:
    _framework_stub()
    _install_integer_draws()
    text = _NPU_LINE.sub("", path.read_text(encoding="utf-8"))
    mod = types.ModuleType(name)
    mod.__file__ = str(path)
    exec(compile(text, str(path), "exec"), mod.__dict__)  # noqa: S102 - the benchmark's own reference code
    return mod


def read_cases(csv_path: Path) -> list[dict[str, Any]]:
    """test_cases.csv rows, typed as NPUKernelBench's runner types them (pandas ``read_csv``, then
    its ``preprocess_dataframe``), column by column: a column of whole numbers (``1.0`` included)
    or of booleans holds ints, a column of numbers floats, anything else strings; an empty cell is
    NaN. Why it matters: ``torch.tensor(param["scale"])`` is an int64 tensor for a ``1.0`` column,
    and ``"False"`` would be true."""
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text(encoding="utf-8")), delimiter=";"))
    columns: dict[str, list[str]] = {}
    for row in rows:
        for k, v in row.items():
            if k is not None:
                columns.setdefault(k.strip(), []).append((v or "").strip() if isinstance(v, str) else "")
    typed = {k: _column(v) for k, v in columns.items()}
    return [{k: vals[i] for k, vals in typed.items()} for i in range(len(rows))]


_TRUE, _FALSE = {"True", "TRUE", "true"}, {"False", "FALSE", "false"}


def _column(cells: list[str]) -> list[Any]:
    nan = float("nan")
    if all(c in _TRUE | _FALSE for c in cells):
        return [int(c in _TRUE) for c in cells]
    numbers: list[float | int] = []
    for c in cells:
        if c == "":
            numbers.append(nan)
            continue
        try:
            numbers.append(int(c))
        except ValueError:
            try:
                numbers.append(float(c))
            except ValueError:
                return [c if c != "" else nan for c in cells]
    if all(isinstance(n, int) for n in numbers):
        return numbers
    if not all(math.isfinite(n) and float(n).is_integer() for n in numbers):  # NaN, inf or a fraction
        return [float(n) for n in numbers]
    return [int(n) for n in numbers]


def draw(prepare: Any, row: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """A case's forward values (get_inputs) and Model's init parameters (get_init_inputs), drawn
    in that order from the torch seed set before (the generated references draw the same way)."""
    values = prepare.get_inputs(row)
    forward = list(values) if isinstance(values, (list, tuple)) else [values]
    init = prepare.get_init_inputs(row) if hasattr(prepare, "get_init_inputs") else []
    return forward, list(init) if isinstance(init, (list, tuple)) else [init]


def split_results(result: Any, dynamic: Sequence[bool]) -> list[Any]:
    """Model's return value as one entry per OpDef output: a single tensor-list output takes the
    whole list the Model returns (the generated references use this too)."""
    if len(dynamic) == 1 and dynamic[0] and isinstance(result, (list, tuple)):
        return [list(result)]
    return list(result) if isinstance(result, (list, tuple)) else [result]
