"""The evaluator's result contract and the judge's rules, defined once.

Everything that decides how a verdict is written down or read back lives here, so the command
line, the platform's workers and the trainer cannot drift apart:

* the verdicts (:class:`Verdict`) and the constants of the judge (:data:`SCHEMA_VERSION`,
  :data:`EVALUATOR_VERSION`, :data:`SUSPICIOUS_SPEEDUP`, :data:`MAX_SOURCE_BYTES`,
  :data:`DEFAULT_SOC`);
* what a submitted source may be (:func:`check_source`, raising :class:`SourceRejected`);
* the one category a failure is counted under (:func:`failure_category`);
* the typed result (:class:`EvaluationResult` with its :class:`CaseResult` s), written as strict
  JSON by ``to_dict`` and read back, also from older layouts, by ``from_dict``.

Strict JSON: a kernel that writes NaN, or never writes its output (the poison is NaN), puts
non-finite floats into the result; bare ``NaN``/``Infinity`` are not JSON and PostgreSQL's
jsonb and SQLite's JSON functions refuse them. :func:`json_safe` writes them as the strings
``"NaN"``, ``"Infinity"`` and ``"-Infinity"``; :func:`number` reads such a value back.

This module imports nothing but :mod:`bench_runner.errors` and :mod:`bench_runner.taxonomy`
(no Django, no numpy), so the platform can import it anywhere.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bench_runner.errors import SubmissionError
from bench_runner.taxonomy import Category, Diagnostic

#: The layout of the result object (docs/evaluator.md §3); changes when a field changes meaning.
#: 2: strict JSON (non-finite numbers as strings), derived ``failure_category``, ``unwritten_output``.
SCHEMA_VERSION = 2
#: The judging rules' version, part of every cache key: bump it when judging changes
#: (tolerances, trial counts, verdict or category rules) so cached results expire.
#: 1.2.0: scalar work charged, device-code poison, byte accounting, traffic bound (issue #16).
#: 1.3.0: token rules on preprocessor output, no load-time kernel code, bounded results (#16); the
#:        public-AscendC surface, per-SoC __CCE_AICORE__, force-included PCH (#18).
#: 1.4.0: one random trial for cases over 2^24 elements; kernels compiled once per core type
#:        (g_coreType a constant); the device_only path's fixed host is not token-checked (#31).
EVALUATOR_VERSION = "1.4.0"
#: A speedup above this is flagged (``suspicious``, flag ``suspicious_speedup``) for review.
SUSPICIOUS_SPEEDUP = 10.0
#: Flags that make a passing result ``suspicious`` (never ranked until reviewed), whatever its
#: speedup: ``suspicious_speedup`` (above :data:`SUSPICIOUS_SPEEDUP`), ``unmodelled_write``
#: (output bytes changed outside every modelled write: the modelled time does not cover the
#: work), ``below_traffic_bound`` (a modelled time below what the task's bytes need at HBM speed).
UNRANKED_FLAGS: frozenset[str] = frozenset({"suspicious_speedup", "unmodelled_write", "below_traffic_bound"})
#: The largest source file (kernel or host) a task accepts, in UTF-8 bytes, unless its ``[limits]``
#: say otherwise (``source_bytes``: an imported suite whose own answers are longer, such as
#: NPUKernelBench's expanded Catlass GEMMs of up to 160 KiB).
MAX_SOURCE_BYTES = 64 * 1024
#: The most a task's ``source_bytes`` may allow (a batch of such sources must still fit a request).
MAX_TASK_SOURCE_BYTES = 1024 * 1024
#: The SoC an evaluation models when none is asked for.
DEFAULT_SOC = "Ascend910B2"
#: The largest result stored or served, as compact JSON (a normal one is 10–30 KB). Larger
#: results are cut down by :func:`bounded`, free-form detail first; the verdict, category,
#: speedup and flags are never touched.
MAX_RESULT_BYTES = 256 * 1024
#: Flag on a result that :func:`bounded` had to cut down.
TRUNCATED_FLAG = "result_truncated"


class Verdict(StrEnum):
    """How an evaluation ended. The values are part of the schema: never rename one."""

    PASSED = "passed"
    WRONG_ANSWER = "wrong_answer"
    COMPILE_ERROR = "compile_error"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    SANDBOX_VIOLATION = "sandbox_violation"
    #: The evaluator or the machine failed, not the submission (never cached; worth a retry).
    SYSTEM_ERROR = "system_error"


VERDICTS: tuple[str, ...] = tuple(v.value for v in Verdict)


class ResultFormatError(ValueError):
    """Raised by ``from_dict`` when a stored result is not one (not an object, unknown verdict)."""


# ---------------------------------------------------------------------------------------------
# Sources

#: The codes of :class:`SourceRejected`.
SOURCE_REJECTION_CODES = ("missing_source", "invalid_source", "source_too_large")


class SourceRejected(SubmissionError):
    """Raised by :func:`check_source`: a submitted source cannot be evaluated.

    ``field`` is the source concerned ("kernel" or "host"); ``code`` is one of
    ``missing_source``, ``invalid_source`` or ``source_too_large``.
    """

    def __init__(self, field: str, code: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.code = code


def check_source(field: str, text: object, *, required: bool, limit: int = MAX_SOURCE_BYTES) -> None:
    """Refuse a source no evaluation should see; returns None when ``text`` is acceptable.

    ``field`` names the source ("kernel" or "host"). ``None`` or ``""`` is accepted only when
    the source is not ``required``. Otherwise the text must be a ``str`` of at most ``limit``
    UTF-8 bytes (the task's: ``Task.source_limit``; :data:`MAX_SOURCE_BYTES` by default), without NUL characters, and encodable as UTF-8
    (no lone surrogates); a host text with file banners must follow the bundle rules of
    bench_runner/op_project.py. Raises :class:`SourceRejected`.
    """
    if text is None or text == "":
        if required:
            raise SourceRejected(field, "missing_source",
                                 f"the {field} source is missing or empty; this submission needs one")
        return
    if not isinstance(text, str):
        raise SourceRejected(field, "invalid_source",
                             f"the {field} source must be text (str), got {type(text).__name__}")
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > limit:
        raise SourceRejected(field, "source_too_large",
                             f"the {field} source is {size} bytes of UTF-8; the limit is {limit} bytes "
                             f"({limit // 1024} KiB): shorten it")
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise SourceRejected(field, "invalid_source",
                             f"the {field} source contains a NUL character (line {line}); remove it")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise SourceRejected(field, "invalid_source",
                             f"the {field} source is not valid UTF-8: it holds an unpaired surrogate "
                             f"U+{ord(text[exc.start]):04X} (line {line}); save the file as UTF-8") from None
    if field == "host":
        from bench_runner import op_project  # a leaf module; imported here to keep contracts first

        try:
            op_project.split_host(text)
        except op_project.BundleError as exc:
            raise SourceRejected(field, "invalid_source", f"the host source is not a valid op_host bundle: {exc}") \
                from None


# ---------------------------------------------------------------------------------------------
# Strict JSON

_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float replaced by "NaN", "Infinity" or "-Infinity".

    Walks dicts, lists and tuples (tuples come back as lists, as JSON has them); everything
    else is returned unchanged. The result always passes ``json.dumps(..., allow_nan=False)``
    when its leaves are JSON types.
    """
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if math.isnan(value):
            return "NaN"
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, Mapping):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def number(value: Any) -> float | None:
    """Read a number written by :func:`json_safe`: an int, a float or one of its three strings.

    Anything else (None, a bool, other strings, containers) is None.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if isinstance(value, str):
        return _NON_FINITE.get(value)
    return None


# ---------------------------------------------------------------------------------------------
# The failure category

_CATEGORY_OF_VERDICT: dict[Verdict, Category] = {
    Verdict.WRONG_ANSWER: Category.NUMERICAL_MISMATCH,
    Verdict.RUNTIME_ERROR: Category.CRASH,
    Verdict.TIMEOUT: Category.TIMEOUT,
    Verdict.SANDBOX_VIOLATION: Category.SANDBOX_VIOLATION,
    Verdict.SYSTEM_ERROR: Category.INFRASTRUCTURE,
    Verdict.COMPILE_ERROR: Category.OTHER,
}


def failure_category(verdict: Verdict | str, diagnostics: Iterable[Diagnostic | Mapping[str, Any]] = ()) -> str:
    """The one taxonomy category a failed evaluation is counted under ("" when it passed).

    It is the category of the first diagnostic with severity "error" that has one (a missing
    severity counts as "error"; a category this version does not know counts as "other");
    without such a diagnostic it follows the verdict: wrong_answer → numerical_mismatch,
    runtime_error → crash, timeout → timeout, sandbox_violation → sandbox_violation,
    system_error → infrastructure, compile_error → other. ``diagnostics`` may hold
    :class:`~bench_runner.taxonomy.Diagnostic` s or their dicts; other items are skipped.
    Raises ValueError for a verdict that is not a :class:`Verdict` value.
    """
    v = Verdict(verdict)
    if v is Verdict.PASSED:
        return ""
    for d in diagnostics or ():
        if isinstance(d, Diagnostic):
            severity, category = d.severity, d.category
        elif isinstance(d, Mapping):
            severity, category = d.get("severity") or "error", d.get("category")
        else:
            continue
        if severity != "error" or not category or not isinstance(category, str):
            continue
        try:
            return Category(category).value
        except ValueError:
            return Category.OTHER.value
    return _CATEGORY_OF_VERDICT[v].value


# ---------------------------------------------------------------------------------------------
# Reading helpers (tolerant of missing keys, strict about the shape of what is there)


def _mapping(d: object, what: str) -> Mapping[str, Any]:
    if not isinstance(d, Mapping):
        raise ResultFormatError(f"{what} must be a JSON object, got {type(d).__name__}")
    return d


def _text(value: object, default: str | None = None) -> str | None:
    return value if isinstance(value, str) else default


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _obj(value: object) -> dict[str, Any] | None:
    return dict(value) if isinstance(value, Mapping) else None


def _items(value: object, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise ResultFormatError(f"{what} must be a JSON array, got {type(value).__name__}")
    return list(value)


def _set(obj: object, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


# ---------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseResult:
    """One case of the task: every trial the kernel ran on it, and how they went.

    ``trials`` and ``perf`` are the evaluator's free-form dicts (docs/evaluator.md §3), held in
    their JSON form: a non-finite ``got`` or error is the string "NaN"/"Infinity"/"-Infinity"
    (read it with :func:`number`). Keys a failing process never produced are None.
    """

    name: str
    passed: bool = False
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    mismatch_count: int | None = None
    exit_code: int | None = None
    signal: int | None = None
    wall_s: float | None = None
    trials: tuple[dict[str, Any], ...] = ()
    perf: dict[str, Any] | None = None
    stdout_tail: str | None = None
    stderr_tail: str | None = None

    def __post_init__(self) -> None:
        _set(self, "trials", tuple(json_safe(dict(t)) for t in self.trials))
        if self.perf is not None:
            _set(self, "perf", json_safe(dict(self.perf)))

    def to_dict(self) -> dict[str, Any]:
        return json_safe({
            "name": self.name, "passed": self.passed, "trials": list(self.trials),
            "exit_code": self.exit_code, "signal": self.signal, "wall_s": self.wall_s, "perf": self.perf,
            "max_abs_err": self.max_abs_err, "max_rel_err": self.max_rel_err,
            "mismatch_count": self.mismatch_count, "stdout_tail": self.stdout_tail,
            "stderr_tail": self.stderr_tail,
        })

    @classmethod
    def from_dict(cls, d: object) -> CaseResult:
        d = _mapping(d, "a case result")
        trials = _items(d.get("trials"), "a case's trials")
        if not all(isinstance(t, Mapping) for t in trials):
            raise ResultFormatError("every trial of a case must be a JSON object")
        return cls(
            name=_text(d.get("name"), "") or "", passed=d.get("passed") is True,
            max_abs_err=number(d.get("max_abs_err")), max_rel_err=number(d.get("max_rel_err")),
            mismatch_count=_int(d.get("mismatch_count")), exit_code=_int(d.get("exit_code")),
            signal=_int(d.get("signal")), wall_s=number(d.get("wall_s")), trials=tuple(trials),
            perf=_obj(d.get("perf")), stdout_tail=_text(d.get("stdout_tail")),
            stderr_tail=_text(d.get("stderr_tail")),
        )


#: Verdicts that imply the build succeeded, for results stored without ``compiled``.
_COMPILED_VERDICTS = {Verdict.PASSED, Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR}


@dataclass(frozen=True, slots=True, kw_only=True)
class EvaluationResult:
    """The outcome of one evaluation: what ``bench_runner.evaluate.evaluate`` returns.

    ``compiled`` is set by the evaluator when the build succeeded: it is *the* definition of
    compiled (CR); ``passed`` (ER), ``suspicious`` and ``failure_category`` are derived and
    written by ``to_dict`` so that JSON readers never re-derive them. The dict-valued fields
    are held in their JSON form (see :class:`CaseResult`). ``schema_version`` is the layout the
    result was first written in (``from_dict`` keeps an older one); ``to_dict`` always writes
    the current encoding.
    """

    schema_version: int = SCHEMA_VERSION
    evaluator_version: str = EVALUATOR_VERSION
    verdict: Verdict
    compiled: bool = False
    #: Where it ended: static_check, compile, run, verify, done (or prepare).
    stage: str = ""
    reason: str | None = None
    #: {slug, version, level}
    task: dict[str, Any] = field(default_factory=dict)
    path: str = ""
    #: {name, version, soc}
    toolchain: dict[str, Any] = field(default_factory=dict)
    compile_log: str = ""
    #: The errors that decided the verdict first, then warnings.
    diagnostics: tuple[Diagnostic, ...] = ()
    cases: tuple[CaseResult, ...] = ()
    perf: dict[str, Any] | None = None
    baseline: dict[str, Any] | None = None
    speedup: float | None = None
    flags: tuple[str, ...] = ()
    source_sha256: str | None = None
    host_sha256: str | None = None
    #: {master, trials: {case: [seed, …]}}
    seeds: dict[str, Any] = field(default_factory=dict)
    #: {backend, note}
    sandbox: dict[str, Any] = field(default_factory=dict)
    #: {hit, key}
    cache: dict[str, Any] = field(default_factory=dict)
    stage_durations_s: dict[str, float] = field(default_factory=dict)
    duration_s: float = 0.0
    created_at: str = ""

    def __post_init__(self) -> None:
        _set(self, "verdict", Verdict(self.verdict))
        _set(self, "diagnostics", tuple(self.diagnostics))
        _set(self, "cases", tuple(self.cases))
        _set(self, "flags", tuple(self.flags))
        for name in ("task", "toolchain", "seeds", "sandbox", "cache", "stage_durations_s"):
            _set(self, name, json_safe(dict(getattr(self, name))))
        for name in ("perf", "baseline"):
            if getattr(self, name) is not None:
                _set(self, name, json_safe(dict(getattr(self, name))))

    # -- derived ---------------------------------------------------------------------------

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    @property
    def suspicious(self) -> bool:
        """The speedup is implausibly large, or the model cannot vouch for it: review before ranking."""
        if any(f in UNRANKED_FLAGS and f != "suspicious_speedup" for f in self.flags):
            return True
        return self.speedup is not None and self.speedup > SUSPICIOUS_SPEEDUP

    @property
    def failure_category(self) -> str:
        """The one category this evaluation is counted under ("" when it passed)."""
        return failure_category(self.verdict, self.diagnostics)

    @property
    def is_infrastructure_failure(self) -> bool:
        """The machine or the evaluator failed, not the submission (retry; never cache)."""
        return self.verdict is Verdict.SYSTEM_ERROR

    def with_cache(self, hit: bool, key: str) -> EvaluationResult:
        """This result as answered from (``hit``) or stored under cache ``key``."""
        return dataclasses.replace(self, cache={"hit": hit, "key": key})

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The result as strict JSON data (``json.dumps(..., allow_nan=False)`` always works)."""
        return json_safe({
            "schema_version": self.schema_version,
            "evaluator_version": self.evaluator_version,
            "verdict": self.verdict.value,
            "passed": self.passed,
            "compiled": self.compiled,
            "failure_category": self.failure_category,
            "stage": self.stage,
            "reason": self.reason,
            "task": self.task,
            "path": self.path,
            "toolchain": self.toolchain,
            "compile_log": self.compile_log,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "cases": [c.to_dict() for c in self.cases],
            "perf": self.perf,
            "baseline": self.baseline,
            "speedup": self.speedup,
            "suspicious": self.suspicious,
            "flags": list(self.flags),
            "source_sha256": self.source_sha256,
            "host_sha256": self.host_sha256,
            "seeds": self.seeds,
            "sandbox": self.sandbox,
            "cache": self.cache,
            "stage_durations_s": self.stage_durations_s,
            "duration_s": self.duration_s,
            "created_at": self.created_at,
        })

    @classmethod
    def from_dict(cls, d: object) -> EvaluationResult:
        """Read a result written by ``to_dict`` or by an older evaluator (schema 1 included).

        Missing keys take their defaults (a missing ``compiled`` follows the verdict); the
        derived keys (``passed``, ``suspicious``, ``failure_category``) are ignored and
        recomputed. Raises :class:`ResultFormatError` for a non-object, a missing or unknown
        verdict, or a field of the wrong JSON type where a list or object must be.
        """
        d = _mapping(d, "an evaluation result")
        raw = d.get("verdict")
        try:
            verdict = Verdict(raw)
        except ValueError:
            raise ResultFormatError(f"unknown verdict {raw!r}; expected one of {', '.join(VERDICTS)}") from None
        diagnostics = []
        for item in _items(d.get("diagnostics"), "diagnostics"):
            if not isinstance(item, Mapping):
                raise ResultFormatError("every diagnostic must be a JSON object")
            diagnostics.append(Diagnostic.from_dict(item))
        cases = [CaseResult.from_dict(c) for c in _items(d.get("cases"), "cases")]
        compiled = d.get("compiled")
        flags = [f for f in _items(d.get("flags"), "flags") if isinstance(f, str)]
        return cls(
            schema_version=_int(d.get("schema_version")) or 1,
            evaluator_version=_text(d.get("evaluator_version"), "") or "",
            verdict=verdict,
            compiled=compiled if isinstance(compiled, bool) else verdict in _COMPILED_VERDICTS,
            stage=_text(d.get("stage"), "") or "",
            reason=_text(d.get("reason")),
            task=_obj(d.get("task")) or {},
            path=_text(d.get("path"), "") or "",
            toolchain=_obj(d.get("toolchain")) or {},
            compile_log=_text(d.get("compile_log"), "") or "",
            diagnostics=tuple(diagnostics),
            cases=tuple(cases),
            perf=_obj(d.get("perf")),
            baseline=_obj(d.get("baseline")),
            speedup=number(d.get("speedup")),
            flags=tuple(flags),
            source_sha256=_text(d.get("source_sha256")),
            host_sha256=_text(d.get("host_sha256")),
            seeds=_obj(d.get("seeds")) or {},
            sandbox=_obj(d.get("sandbox")) or {},
            cache=_obj(d.get("cache")) or {},
            stage_durations_s=_obj(d.get("stage_durations_s")) or {},
            duration_s=number(d.get("duration_s")) or 0.0,
            created_at=_text(d.get("created_at"), "") or "",
        )


__all__ = [
    "DEFAULT_SOC", "EVALUATOR_VERSION", "MAX_SOURCE_BYTES", "MAX_TASK_SOURCE_BYTES", "SCHEMA_VERSION", "SOURCE_REJECTION_CODES",
    "SUSPICIOUS_SPEEDUP", "UNRANKED_FLAGS", "VERDICTS", "CaseResult", "EvaluationResult", "ResultFormatError", "SourceRejected",
    "Verdict", "check_source", "failure_category", "json_safe", "number",
]


# ---------------------------------------------------------------------------------------------
# Size bound

_TEXT_KEEP = 16 * 1024
_DIAGNOSTICS_KEEP = 100
_TRIALS_KEEP = 4


def result_bytes(record: EvaluationResult) -> int:
    """The size of ``record`` as stored: compact UTF-8 JSON."""
    return len(json.dumps(record.to_dict(), separators=(",", ":"), allow_nan=False).encode("utf-8"))


def _tail(text: str | None, keep: int) -> str | None:
    if text is None or len(text) <= keep:
        return text
    return "[… cut to fit the result size limit …]\n" + text[-keep:]


def bounded(record: EvaluationResult, limit: int = MAX_RESULT_BYTES) -> EvaluationResult:
    """``record`` cut down to at most ``limit`` bytes of JSON, the judgement untouched.

    Whatever a kernel can make large (logs, diagnostics, per-trial detail, the emulator's
    report) is shortened step by step until the record fits; what it was judged on (verdict,
    compiled, stage, reason, category, speedup, flags, task, seeds) stays exactly as it was,
    and :data:`TRUNCATED_FLAG` says that detail is missing. Evaluators call this before they
    return a result, and the platform again before it stores one from another host.
    """
    if result_bytes(record) <= limit:
        return record
    flags = record.flags if TRUNCATED_FLAG in record.flags else (*record.flags, TRUNCATED_FLAG)
    steps = (
        lambda r: dataclasses.replace(
            r, compile_log=_tail(r.compile_log, _TEXT_KEEP) or "",
            cases=tuple(dataclasses.replace(c, stdout_tail=_tail(c.stdout_tail, 2048),
                                            stderr_tail=_tail(c.stderr_tail, 2048)) for c in r.cases)),
        lambda r: dataclasses.replace(r, diagnostics=r.diagnostics[:_DIAGNOSTICS_KEEP]),
        lambda r: dataclasses.replace(r, cases=tuple(dataclasses.replace(c, trials=c.trials[:_TRIALS_KEEP])
                                                     for c in r.cases)),
        lambda r: dataclasses.replace(r, perf=_summary(r.perf), baseline=_summary(r.baseline)),
        lambda r: dataclasses.replace(r, cases=tuple(dataclasses.replace(c, perf=_summary(c.perf), trials=())
                                                     for c in r.cases)),
        lambda r: dataclasses.replace(r, compile_log=_tail(r.compile_log, 1024) or "",
                                      diagnostics=r.diagnostics[:10], perf=None, baseline=None,
                                      cases=tuple(dataclasses.replace(c, perf=None, stdout_tail=None,
                                                                      stderr_tail=None) for c in r.cases)),
    )
    out = dataclasses.replace(record, flags=flags)
    for step in steps:
        out = step(out)
        if result_bytes(out) <= limit:
            return out
    return out


def _summary(perf: dict[str, Any] | None) -> dict[str, Any] | None:
    """The scalar entries of a perf dict (cycles, times): what the pages show and ranks use."""
    if perf is None:
        return None
    return {k: v for k, v in perf.items() if isinstance(v, (int, float, str, bool)) or v is None}
