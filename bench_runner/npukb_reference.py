"""The golden model of an imported NPUKernelBench task: its own validation code, in torch on the CPU.

Each imported task's ``reference.py`` (written by npukb_import) binds a :class:`TaskReference`
to its folder and exports its ``make_inputs`` / ``golden`` / ``check`` (the contract in
bench_runner/reference.py). The folder holds the benchmark's ``npukb/module.py`` and
``npukb/prepare_inputs.py``, the case rows (``cases.json``), the routing of the case's values
(``spec.json``: npukb_plan) and each case's values that no input carries (``values.json``).
Trusted benchmark code, run in the evaluator's process; never a submission.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from bench_runner.npukb_plan import value_from_json
from bench_runner.npukb_pybind import record_call
from bench_runner.npukb_validation import (
    check_precision,
    draw,
    load_validation,
    split_results,
    torch_dtype,
)

_PY = {"float": float, "int": int, "bool": bool}


def _torch() -> Any:
    import torch

    return torch


def native(t: Any, dtype: str) -> np.ndarray:
    """A tensor as the task stores it: in ``dtype``, bfloat16 as its uint16 bits."""
    torch = _torch()
    t = t.detach().to(torch_dtype(dtype)).contiguous()
    if dtype == "bfloat16":
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


class TaskReference:
    """make_inputs / golden / check of one imported task folder."""

    def __init__(self, folder: Path) -> None:
        self.prepare, self.module = load_validation(folder / "npukb")
        self.cases = json.loads((folder / "npukb" / "cases.json").read_text())
        self.spec = json.loads((folder / "npukb" / "spec.json").read_text())
        values = folder / "npukb" / "values.json"
        self.values = json.loads(values.read_text()) if values.is_file() else {}
        self.lists = set(self.spec.get("lists", []))

    # -- the contract ------------------------------------------------------------------------
    def make_inputs(self, case: Any, rng: Any) -> dict[str, np.ndarray]:
        """The case's get_inputs / get_init_inputs, drawn from a torch seed taken from ``rng``;
        each OpDef input gets the value the binding routes to it, in its stored form."""
        torch = _torch()
        torch.manual_seed(int(rng.integers(0, 2**31 - 1)))
        forward, init = draw(self.prepare, self.cases[case.name])
        values = forward + init
        made = {int(j): k for j, k in (self.spec.get("from_call") or {}).items()}
        # inputs ModelNew computes from these values (GeluGrad's gelu(x)): its call, as the runner makes it
        call = record_call(self.module, init, forward).args if made else ()
        out = {}
        for j, ((name, dtype), at) in enumerate(zip(self.spec["inputs"], self.spec["positions"], strict=True)):
            v = call[made[j]] if j in made else values[at]
            if name in self.lists:  # a tensor list: its tensors one after the other, flat
                t = torch.cat([e.reshape(-1) for e in v]) if v else torch.zeros(0)
            else:
                t = v if isinstance(v, torch.Tensor) else torch.tensor([v])
            out[name] = native(t.reshape(case.shapes[name]), dtype)
        return out

    def golden(self, inputs: dict[str, np.ndarray], attrs: dict[str, Any], case: Any) -> dict[str, np.ndarray]:
        """``Model(*init)(*forward)`` on the values the case routed, each output as stored; an
        output the benchmark does not judge gets zeros (the verdict never reads them)."""
        torch = _torch()
        forms = dict(zip([n for n, _ in self.spec["inputs"]], self.spec.get("forms") or [None] * len(self.spec["inputs"]),
                         strict=True))
        dtypes = dict(self.spec["inputs"])
        own = self.values.get(case.name, {})
        args = []
        for i, (kind, *what) in enumerate(self.spec["sources"]):
            if kind == "input":
                args.append(self._argument(what[0], dtypes[what[0]], inputs[what[0]], case, forms.get(what[0])))
            elif kind == "attr":
                args.append(attrs[what[0]])
            else:
                args.append(value_from_json(own.get(str(i)), torch))
        n = self.spec["n_forward"]
        result = self.module.Model(*args[n:])(*args[:n])
        results = split_results(result, [name in self.lists for name, _ in self.spec["outputs"]])
        out = {}
        for name, dtype in self.spec["outputs"]:
            index = self.spec["results"][name]
            if index is None:
                out[name] = native(torch.zeros(case.shapes[name]), dtype)
                continue
            r = results[index]
            if name in self.lists:
                r = torch.cat([e.detach().reshape(-1) for e in r])
            r = r.detach()
            if r.dim() == 0:  # a 0-d result (a BLAS scalar: isamax, snrm2) is the task's one-element output
                r = r.reshape(1)
            shape = tuple(case.shapes[name])
            if name not in self.lists and tuple(r.shape) != shape and r.numel() == int(np.prod(shape)):
                r = r.reshape(shape)  # the shape the binding allocates (a loss's () as (1,))
            out[name] = (r != 0).numpy() if dtype == "bool" else native(r, dtype)
        return out

    def check(self, expected: dict[str, np.ndarray], got: dict[str, np.ndarray], attrs: dict[str, Any],
              case: Any) -> bool | tuple[bool, str]:
        """The benchmark's verdict: its task's custom_check_precision, else its default rule at
        the checkout's tolerance, on the outputs its binding returns, in that order."""
        want, new = self._outputs(expected, case), self._outputs(got, case)
        custom = getattr(self.prepare, "custom_check_precision", None)
        if custom is not None:
            return bool(custom(dict(self.cases[case.name]), want, new)[0]), "NPUKernelBench's custom_check_precision"
        limits = self.spec["precision"]
        return bool(check_precision(want, new, limits["max_abs_error"], limits["max_rel_error"])[0])

    # -- helpers -----------------------------------------------------------------------------
    def _tensor(self, name: str, dtype: str, flat: np.ndarray, case: Any) -> Any:
        torch = _torch()
        # writable: the judge's inputs are read-only, and an in-place Model (Sscal) writes its input
        flat = np.require(flat, requirements=["C", "W"])
        if dtype == "bfloat16" and flat.dtype == np.uint16:  # stored bits (golden's inputs)
            t = torch.from_numpy(flat.view(np.int16)).view(torch.bfloat16)
        else:
            t = torch.from_numpy(flat).to(torch_dtype(dtype))
        if name not in self.lists:
            return t
        parts, at = [], 0
        for shape in case.lists[name]:
            n = int(np.prod(shape, dtype=np.int64))
            parts.append(t[at:at + n].reshape(shape))
            at += n
        return parts

    def _outputs(self, arrays: dict[str, np.ndarray], case: Any) -> Any:
        """The outputs as the benchmark's runner holds them: one tensor, or a list of tensors in
        their own dtypes, in the order its binding returns them."""
        judged = sorted((self.spec["results"][name], name, dtype) for name, dtype in self.spec["outputs"]
                        if self.spec["results"][name] is not None)
        tensors = [self._tensor(name, dtype, arrays[name], case) for _, name, dtype in judged]
        if len(tensors) == 1:
            return tensors[0]
        return [t for entry in tensors for t in (entry if isinstance(entry, list) else [entry])]

    def _argument(self, name: str, dtype: str, flat: np.ndarray, case: Any, form: Any) -> Any:
        """An input as get_inputs gave it to Model: a Python number, a 0-d tensor, a tensor or a
        list, in the dtype it was drawn in (the task stores it in the OpDef's)."""
        value = self._tensor(name, dtype, flat, case)
        kind, detail = form or ("tensor", dtype)
        if kind == "py":
            return _PY[detail](value.reshape(-1)[0].item())
        if kind == "list":
            return [e.to(torch_dtype(detail)) for e in value] if detail else value
        value = value.to(torch_dtype(detail))
        if kind == "tensor_grad":
            return value.detach().requires_grad_(True)
        return value.reshape(()) if kind == "tensor0" else value
