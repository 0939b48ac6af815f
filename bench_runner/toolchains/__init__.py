"""Toolchains behind one interface: ``cpu-sim`` (g++ + the ascend_sim emulator, works anywhere)
and ``cann`` (a real CANN installation on an Ascend host).

The evaluator owns the task, the trials, the golden, the comparison and the cache; a toolchain
owns how sources become a program and how a program runs one case and reports its time.
"""

from __future__ import annotations

from bench_runner.errors import InputError
from bench_runner.toolchains.base import (
    Availability,
    BuildOutcome,
    CaseRun,
    Sources,
    Toolchain,
)

__all__ = ["Availability", "BuildOutcome", "CaseRun", "Sources", "Toolchain", "get", "names"]

_NAMES = ("cpu-sim", "cann")


def names() -> tuple[str, ...]:
    return _NAMES


def get(name: str) -> Toolchain:
    """The toolchain called ``name``; InputError lists the known names."""
    if name == "cpu-sim":
        from bench_runner.toolchains.cpu_sim import CpuSim

        return CpuSim()
    if name == "cann":
        from bench_runner.toolchains.cann import Cann

        return Cann()
    raise InputError(f"unknown toolchain {name!r}; expected one of {', '.join(_NAMES)}")
