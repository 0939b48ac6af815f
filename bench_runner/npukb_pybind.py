"""How an NPUKernelBench task's binding turns a model's call into the op's operands.

A task's ``validation/pybind.cpp`` sits between ``ModelNew`` and the op: it takes the values
``ModelNew`` passes to ``kernel_gen_ops.<fn>``, adds constants of its own (GeGluV2's ``dim``,
``approximate``), turns strings into ``const char*``, allocates the outputs in the shapes and
dtypes it chooses, calls ``EXEC_NPU_CMD(aclnnX, inputs..., attributes..., outputs...)`` and
returns some of the outputs (RmsNorm returns ``y`` and not ``rstd``). The benchmark compares
only what it returns against what ``Model`` returns, in that order.

Rather than guess any of that from the text, the import compiles the benchmark's own file with
g++ against akgen's torch shim (``harness/npukb_pybind``: shapes, dtypes and identities, no
data) and runs it on the call ``ModelNew`` really makes. The file is benchmark code the operator
checked out (trusted, like its ``module.py``), run at import time with a time limit; no
submitted code comes near it.
"""

from __future__ import annotations

import hashlib
import numbers
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy

from bench_runner import cache

SHIM_DIR = Path(__file__).resolve().parent / "harness" / "npukb_pybind"
#: A tensor this small goes to the shim with its values (pybind code may read them: item<T>()).
VALUES_UP_TO = 64
RUN_TIMEOUT_S = 30
COMPILE_TIMEOUT_S = 120


class PybindError(Exception):
    """The binding could not be compiled or run on a call; the message says where it stopped."""


@dataclass(frozen=True, slots=True)
class Operand:
    """One operand of ``EXEC_NPU_CMD``, as the binding passed it."""

    #: "tensor", "none" (an undefined or absent optional tensor), "list", "int", "float",
    #: "bool", "str", "ints" (an int list), "scalars", "dtype", or "scalar" (an at::Scalar or
    #: aclScalar the binding made from call argument ``source``; ``items`` holds its number).
    kind: str
    #: For a tensor: "a<k>" (the call's argument k), "a<k>.<j>" (element j of list argument k)
    #: or "n<k>" (made by the binding: an output it allocated).
    source: str = ""
    dtype: str = ""
    shape: tuple[int, ...] = ()
    value: Any = None
    items: tuple[Operand, ...] = ()

    @property
    def argument(self) -> int | None:
        """The index of the call argument this tensor (or list) is, or None if the binding made it."""
        src = self.source or (self.items[0].source if self.items else "")
        if not src.startswith("a"):
            return None
        return int(src[1:].split(".")[0])


@dataclass(frozen=True, slots=True)
class Binding:
    """What one call did: the aclnn op, its operands in order, and what the function returned."""

    op: str
    operands: tuple[Operand, ...]
    returns: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Call:
    """The one ``kernel_gen_ops`` call a ``ModelNew`` made: the function and its arguments."""

    function: str
    args: tuple[Any, ...]


class _Recorded(Exception):
    def __init__(self, call: Call) -> None:
        super().__init__(call.function)
        self.call = call


class _Recorder:
    """Stands in for the built ``kernel_gen_ops`` module: the first call is the one recorded."""

    def __getattr__(self, name: str) -> Any:
        def record(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                raise PybindError(f"ModelNew calls kernel_gen_ops.{name} with keyword arguments "
                                  f"({', '.join(kwargs)}); the binding takes positional ones")
            raise _Recorded(Call(name, args))
        return record


def record_call(module: Any, init: list[Any], forward: list[Any]) -> Call:
    """Run ``ModelNew(*init)(*forward)`` until it calls ``kernel_gen_ops``; return that call."""
    had = getattr(module, "kernel_gen_ops", None)
    module.kernel_gen_ops = _Recorder()
    try:
        module.ModelNew(*init)(*forward)
    except _Recorded as rec:
        return rec.call
    finally:
        if had is None:
            del module.kernel_gen_ops
        else:
            module.kernel_gen_ops = had
    raise PybindError("ModelNew returned without calling kernel_gen_ops")


class CompiledBinding:
    """A task's pybind.cpp built with the shim, ready to run on calls (one build per task).

    The program is kept under ``workdir`` (default: ``<akgen cache>/npukb-pybind``), keyed by the
    file and the shim, and reused without rebuilding; the directory must be this user's alone
    (:func:`bench_runner.cache.private_dir`), else :class:`PybindError` says why.
    """

    def __init__(self, pybind: Path, workdir: Path | None = None) -> None:
        gxx = shutil.which("g++")
        if gxx is None:
            raise PybindError("g++ is not installed")
        text = pybind.read_bytes()
        key = hashlib.sha256(text + _shim_fingerprint()).hexdigest()[:16]
        # The built program is run without rebuilding: it lives where only this user can write
        # (never a shared temp dir, where another local user could plant one).
        try:
            root = cache.private_dir(Path(workdir) if workdir else cache.default_dir() / "npukb-pybind")
            self._dir = cache.private_dir(root / key)
        except cache.UnsafeDirectoryError as exc:
            raise PybindError(str(exc)) from None
        self.program = self._dir / "binding"
        if self.program.is_file():
            return
        cmd = [gxx, "-std=c++17", "-O0", "-w", f"-I{SHIM_DIR}", f"-I{SHIM_DIR / 'include'}",
               str(pybind), str(SHIM_DIR / "akgen_pybind_main.cpp"), "-o", str(self._dir / "binding.tmp")]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise PybindError("pybind.cpp did not compile within the time limit") from None
        if done.returncode != 0:
            first = next((ln for ln in done.stderr.splitlines() if "error" in ln), done.stderr.strip()[:300])
            raise PybindError(f"pybind.cpp does not compile with akgen's torch shim: {first.strip()[:300]}")
        (self._dir / "binding.tmp").replace(self.program)

    def run(self, call: Call) -> Binding:
        """The operands and returns of ``call`` (raises :class:`PybindError` with the reason)."""
        text = f"fn {call.function}\nargs {len(call.args)}\n" + "".join(
            _encode(v, f"a{k}") for k, v in enumerate(call.args))
        try:
            done = subprocess.run([str(self.program)], input=text, capture_output=True, text=True,
                                  timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise PybindError("pybind.cpp did not finish within the time limit") from None
        if done.returncode == 3:
            raise PybindError("pybind.cpp calls EXEC_NPU_CMD more or fewer times than once")
        if done.returncode != 0:
            raise PybindError(f"pybind.cpp stopped: {done.stderr.strip()[:300] or f'exit {done.returncode}'}")
        return parse_output(done.stdout)


def _shim_fingerprint() -> bytes:
    return b"".join(p.read_bytes() for p in sorted(SHIM_DIR.rglob("*")) if p.is_file())


def _encode(value: Any, ident: str) -> str:
    import torch

    if value is None:
        return "N\n"
    if isinstance(value, torch.Tensor):
        dtype = str(value.dtype).removeprefix("torch.")
        head = f"T {ident} {dtype} {value.dim()} {' '.join(str(s) for s in value.shape)}"
        vals: list[str] = []
        if value.numel() <= VALUES_UP_TO and not value.is_complex():
            vals = [repr(float(v)) for v in value.detach().reshape(-1).double().tolist()]
        return f"{head} {len(vals)} {' '.join(vals)}\n"
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, torch.Tensor) for v in value):
            return f"L {len(value)}\n" + "".join(_encode(v, f"{ident}.{j}") for j, v in enumerate(value))
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return f"V {len(value)} {' '.join(str(v) for v in value)}\n"
        raise PybindError(f"argument {ident}: a list of {sorted({type(v).__name__ for v in value})}")
    if isinstance(value, (bool, numpy.bool_)):
        return f"B {int(value)}\n"
    if isinstance(value, numbers.Integral):
        return f"I {int(value)}\n"
    if isinstance(value, numbers.Real):
        return f"F {float(value)!r}\n"
    if isinstance(value, str):
        return f"S {len(value.encode())} {value}\n"
    raise PybindError(f"argument {ident}: a {type(value).__name__} cannot be passed to the binding")


def parse_output(text: str) -> Binding:
    """Read the shim's record (akgen_pybind_main.cpp documents the lines)."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("exec "):
        raise PybindError("the binding's record is empty")
    _, op, count = lines[0].split(" ", 2)
    pos = 1

    def one() -> Operand:
        nonlocal pos
        line = lines[pos]
        pos += 1
        kind, _, rest = line.partition(" ")
        if kind == "T":
            src, dtype, ndim, *dims = rest.split()
            return Operand("tensor", src, dtype, tuple(int(d) for d in dims[:int(ndim)]))
        if kind == "N":
            return Operand("none")
        if kind == "Q":  # a scalar traced to the call argument it came from: "Q a3 F 1.5"
            src, _, inner = rest.partition(" ")
            lines[pos - 1] = inner
            pos -= 1
            value = one()
            return Operand("scalar", src, value=value.value, items=(value,))
        if kind in ("L", "X"):
            n = int(rest)
            items = tuple(one() for _ in range(n))
            return Operand("list" if kind == "L" else "scalars", items=items)
        if kind == "I":
            return Operand("int", value=int(rest))
        if kind == "F":
            return Operand("float", value=float(rest))
        if kind == "B":
            return Operand("bool", value=rest.strip() == "1")
        if kind == "S":
            n, _, s = rest.partition(" ")
            return Operand("str", value=s[:int(n)])
        if kind == "V":
            n, *vals = rest.split()
            return Operand("ints", value=[int(v) for v in vals[:int(n)]])
        if kind == "D":
            return Operand("dtype", value=rest.strip())
        raise PybindError(f"the binding's record has an unknown line: {line[:80]!r}")

    operands = tuple(one() for _ in range(int(count)))
    returns: tuple[str, ...] = ()
    for line in lines[pos:]:
        if line.startswith("return"):
            returns = tuple(line.split()[1:])
    return Binding(op, operands, returns)
