"""The interface every toolchain implements, and the records it returns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from bench_runner.cache import Cache
from bench_runner.launcher import StreamResult, Trial
from bench_runner.sandbox import JobDir, SandboxResult
from bench_runner.tasks import CaseSpec, Task
from bench_runner.taxonomy import Diagnostic


@dataclass(frozen=True, slots=True)
class Availability:
    ok: bool
    reason: str
    socs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sources:
    """A submission as the toolchain compiles it."""

    kernel: str
    #: The host tiling: the candidate's (host_device) or the task's fixed one (device_only).
    host: str | None
    #: True when ``host`` is the task's own file, so its compiled form may be reused.
    host_is_fixed: bool


@dataclass(slots=True)
class BuildOutcome:
    ok: bool
    log: str
    diagnostics: list[Diagnostic]
    #: Set when the build did not finish for a reason other than the sources (limits, infra).
    sandbox: SandboxResult | None = None
    duration_s: float = 0.0


@dataclass(slots=True)
class CaseRun:
    """What one process running all trials of one case left behind."""

    sandbox: SandboxResult
    stream: StreamResult
    #: The emulator's (or device runner's) last report, also when the process died.
    final_report: dict[str, Any] | None
    reports: list[dict[str, Any] | None] = field(default_factory=list)
    stream_error: str | None = None


@dataclass(frozen=True, slots=True)
class Preprocessed:
    """The submitted files after the preprocessor, for the token rules of static_check."""

    #: ``g++ -E -dD`` output, linemarkers kept.
    text: str
    #: linemarker file name → the name diagnostics report (``kernel.cpp``).
    files: dict[str, str]
    #: The toolchain's own headers' macros, name → replacement text.
    macros: dict[str, str]
    #: Directories a submitted file may reach through an ``#include``.
    include_roots: tuple[str, ...]


class Toolchain(ABC):
    name: str

    @abstractmethod
    def availability(self) -> Availability:
        """Whether this host can serve the toolchain, which SoCs, and why not if it cannot."""

    @abstractmethod
    def default_soc(self) -> str: ...

    @abstractmethod
    def identity(self, soc: str) -> dict[str, str]:
        """``{"name", "version", "soc"}``; ``version`` changes whenever results could change."""

    @abstractmethod
    def build(self, task: Task, job: JobDir, sources: Sources, *, soc: str, objects: Cache) -> BuildOutcome:
        """Compile and link the submission with the fixed driver inside the sandbox.

        ``objects`` caches compiled task-level pieces (the driver, a fixed host) across jobs.
        """

    @abstractmethod
    def run_case(self, task: Task, job: JobDir, case_index: int, case: CaseSpec, trials: list[Trial], *,
                 soc: str) -> CaseRun:
        """Run every trial of one case in one sandboxed process."""

    def macros(self) -> dict[str, str]:
        """The macros the toolchain's own headers define (name → replacement), for static_check."""
        return {}

    def preprocess(self, task: Task, sources: Sources) -> Preprocessed | None:
        """The submitted files through the preprocessor, sandboxed; None when not supported or no output.

        static_check runs its rules again on this, so token pasting, calls spelled through a
        macro and ``#include`` of a macro cannot hide what the plain text check refuses.
        """
        return None

    @property
    def baseline_kind(self) -> str:
        """``expert`` (the task's expert kernel, same toolchain) or ``vendor`` (the vendor op)."""
        return "expert"

    def vendor_baseline(self, task: Task, soc: str) -> dict[str, Any]:
        """The vendor operator's time per case, for toolchains whose baseline_kind is vendor."""
        raise NotImplementedError(f"{self.name} compares against the expert kernel")
