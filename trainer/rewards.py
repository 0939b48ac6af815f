"""Execution rewards for RL (``akgen train grpo``): the evaluator's verdict and modelled speedup.

A completion is parsed by the format rules the prompt states (``bench_runner.prompt.extract_sources``,
after any inline ``<think>…</think>`` block), then compiled, run, verified and timed by
``bench_runner.evaluate.evaluate`` — the sandboxed judge every kernel goes through. Four
components are TRL reward functions of their own, so ``GRPOTrainer`` logs each one
(``rewards/<name>/mean``) and a reviewer can see which part moved:

* ``format`` (weight 0.5): 1 if the answer parses into kernel [+ host] the evaluator accepts;
* ``compiles`` (0.5): 1 if it compiled (a static-check rejection, e.g. device_code, is 0);
* ``passes`` (2.0): 1 if every case passed;
* ``performance`` (1.0): ``clip(log2(speedup), -1, 1)`` if it passed and the evaluator vouches
  for the speedup (:func:`vouched`); else 0.

The total reward is ``Σ weight × value`` (TRL's ``reward_weights``, set from :data:`WEIGHTS`).
The speedup is against the task's expert kernel (1.0 = expert speed, so matching the expert
earns 0 performance, twice as fast +1, half as fast -1). With the default weights every
completion is ranked: expert-speed kernel (3.0) > correct but slow (2.0 at worst) > wrong
answer (1.0) > compile error or static-check rejection (0.5) > unparsable (0);
:func:`check_weights` refuses weights that would break that order. A result the evaluator does not vouch for
(``EvaluationResult.suspicious``: speedup above ``contracts.SUSPICIOUS_SPEEDUP`` or a flag in
``contracts.UNRANKED_FLAGS``) earns no performance reward, so gaming the cost model pays nothing.

A batch is evaluated once and shared by the four components (:class:`BatchEvaluator`), in a
local process pool, with identical (task, path, kernel, host) submissions evaluated once per
batch and bench_runner's result cache answering repeats across steps. An evaluator that fails
(an exception other than an input error, or a ``system_error`` verdict) raises
:class:`RewardInfrastructureError`, which stops the training step: a machine fault must never
reach the policy as a zero reward.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bench_runner.contracts import UNRANKED_FLAGS, EvaluationResult, Verdict, check_source
from bench_runner.errors import InputError, SubmissionError
from bench_runner.prompt import extract_sources
from trainer.generate import split_reasoning

# --- the reward definition: one place ----------------------------------------------------------

#: The components, in the order they are handed to TRL (and of TRL's ``reward_weights``).
COMPONENTS: tuple[str, ...] = ("format", "compiles", "passes", "performance")
#: Default weight of each component in the total reward (read-only; override per run with
#: :func:`parse_weights`, which keeps the documented order).
WEIGHTS: Mapping[str, float] = MappingProxyType({"format": 0.5, "compiles": 0.5, "passes": 2.0, "performance": 1.0})
#: The performance term is log base PERF_LOG_BASE of the speedup, clipped to ±PERF_CLIP.
PERF_LOG_BASE = 2.0
PERF_CLIP = 1.0
#: The process pool's start method: the trainer holds torch/OpenMP threads, and forking a
#: multi-threaded process can deadlock the child; spawned workers import only bench_runner
#: (and the main program's module, so it must be a file or ``-m`` module, not stdin).
POOL_START_METHOD = "spawn"


class RewardError(Exception):
    """Base of the reward module's errors: training cannot go on with this batch."""


class RewardInfrastructureError(RewardError):
    """The evaluator or the machine failed while scoring a batch; the step is stopped.

    Never turned into a reward: a zero for a machine fault would teach the policy that good
    kernels are bad. Check the host (``akgen doctor``) and resume from the last checkpoint.
    """


class RewardInputError(RewardError):
    """A reward was asked for a task or path that cannot be evaluated (unknown task, path not
    offered, bad weights): a recipe or dataset mistake, not the completion's fault."""


def check_weights(weights: Mapping[str, float]) -> None:
    """Refuse weights that break the documented order (expert > slow > wrong > compile error >
    unparsable): format and compiles must be > 0, and passes must outweigh the largest
    performance penalty (passes > performance >= 0), so a correct kernel always beats a wrong one."""
    missing = [c for c in COMPONENTS if c not in weights]
    if missing:
        raise RewardInputError(f"reward weights: missing {', '.join(missing)} (components: {', '.join(COMPONENTS)})")
    for name in ("format", "compiles"):
        if not weights[name] > 0:
            raise RewardInputError(f"reward weights: {name} must be > 0 (got {weights[name]}), or an unparsable "
                                   "answer would tie with a compile error")
    if not weights["passes"] > weights["performance"] >= 0:
        raise RewardInputError(
            f"reward weights: need passes > performance >= 0 (got passes {weights['passes']}, performance "
            f"{weights['performance']}): the slowest correct kernel (performance -{PERF_CLIP:g}) must still "
            "out-earn a wrong answer")


def parse_weights(value: Mapping[str, Any] | str | None) -> dict[str, float]:
    """:data:`WEIGHTS` with overrides from a mapping or ``name=weight,…`` text, checked."""
    weights = dict(WEIGHTS)
    if value in (None, "", {}):
        return weights
    if isinstance(value, str):
        pairs = [p.partition("=") for p in (s.strip() for s in value.split(",")) if p]
        value = {name.strip(): number for name, _, number in pairs}
    if not isinstance(value, Mapping):
        raise RewardInputError(f"reward weights: expected a mapping of component to weight, got {value!r}")
    for name, number in value.items():
        if name not in COMPONENTS:
            raise RewardInputError(f"reward weights: unknown component {name!r}; expected {', '.join(COMPONENTS)}")
        try:
            weights[name] = float(number)
        except (TypeError, ValueError):
            raise RewardInputError(f"reward weights: the weight of {name} must be a number, got {number!r}") from None
    check_weights(weights)
    return weights


def performance_term(result: EvaluationResult) -> float:
    """clip(log2(speedup), ±1) for a passing result the evaluator vouches for; else 0."""
    if not result.passed or not vouched(result) or result.speedup is None:
        return 0.0
    if not (math.isfinite(result.speedup) and result.speedup > 0):
        return 0.0
    return max(-PERF_CLIP, min(PERF_CLIP, math.log(result.speedup, PERF_LOG_BASE)))


def vouched(result: EvaluationResult) -> bool:
    """The evaluator stands behind this result's speedup: not ``suspicious`` and no flag of
    ``contracts.UNRANKED_FLAGS`` (a result is never ranked, or rewarded for speed, until reviewed)."""
    return not result.suspicious and not any(f in UNRANKED_FLAGS for f in result.flags)


# --- one completion ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Submission:
    """What the evaluator sees: the dedup key of a batch (two completions that differ only in
    reasoning or prose around the code are the same submission)."""

    task: str
    path: str
    kernel: str
    host: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """One completion's judgement: why it did not parse, or the evaluator's result."""

    format_error: str | None = None
    result: EvaluationResult | None = None

    @property
    def parsed(self) -> bool:
        return self.format_error is None

    @property
    def verdict(self) -> str:
        return "unparsable" if self.result is None else str(self.result.verdict)

    def components(self) -> dict[str, float]:
        """The unweighted value of every component (see the module docstring)."""
        r = self.result
        if r is None:
            return dict.fromkeys(COMPONENTS, 0.0)
        return {"format": 1.0, "compiles": float(r.compiled), "passes": float(r.passed),
                "performance": performance_term(r)}


def total_reward(outcome: Outcome, weights: Mapping[str, float] = WEIGHTS) -> float:
    """Σ weight × component: what TRL adds up with ``reward_weights``."""
    return sum(weights[name] * value for name, value in outcome.components().items())


def completion_text(completion: str | Sequence[Mapping[str, Any]]) -> str:
    """The answer text of a TRL completion: a string (standard format) or a list of messages
    (conversational: the last assistant message's content)."""
    if isinstance(completion, str):
        return completion
    for message in reversed(list(completion)):
        if message.get("role", "assistant") == "assistant":
            content = message.get("content")
            if isinstance(content, list):  # content blocks
                content = "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
            return content if isinstance(content, str) else ""
    return ""


def parse_completion(text: str, task: str, path: str) -> Submission:
    """The submission a completion holds; raises SubmissionError (bad format, or a code block
    with nothing in it: no free format reward for an empty answer) or SourceRejected (too
    large, NUL) — both the completion's fault, scored as unparsable."""
    _, answer = split_reasoning(text)
    kernel, host = extract_sources(answer, path)
    for name, source in (("kernel", kernel), ("host", host)):
        if source is not None and not source.strip():
            raise SubmissionError(f"the {name} code block is empty")
    check_source("kernel", kernel, required=True)
    check_source("host", host, required=path == "host_device")
    return Submission(task=task, path=path, kernel=kernel, host=host)


# --- the evaluation job (runs in a pool worker) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvalOptions:
    """How every submission of a run is evaluated (passed to the worker with each job)."""

    toolchain: str = "cpu-sim"
    soc: str | None = None
    cache_dir: str | None = None
    use_cache: bool = True


def evaluate_submission(sub: Submission, options: EvalOptions) -> dict[str, Any]:
    """Evaluate one submission with bench_runner (sandboxed), in a pool worker.

    Returns plain data, the only thing that crosses the process boundary safely (bench_runner's
    exceptions take constructor arguments that pickle cannot rebuild): ``{"result": <strict
    JSON result>}``, or ``{"error": "input"|"infrastructure", "type": …, "message": …}`` when
    evaluate raised.
    """
    from bench_runner.evaluate import evaluate

    try:
        result = evaluate(sub.task, sub.kernel, sub.host, path=sub.path, toolchain=options.toolchain,
                          soc=options.soc, cache_dir=options.cache_dir, use_cache=options.use_cache)
    except InputError as exc:
        return {"error": "input", "type": type(exc).__name__, "message": str(exc)}
    except Exception as exc:  # noqa: BLE001 (InfrastructureError, or a bug: either way not the completion's)
        return {"error": "infrastructure", "type": type(exc).__name__, "message": str(exc)}
    return {"result": result.to_dict()}


EvaluateFn = Callable[[Submission, EvalOptions], dict[str, Any]]


# --- a batch -----------------------------------------------------------------------------------


@dataclass
class BatchStats:
    """Counts of one batch, and of the whole run (``totals``), for logs and tests."""

    completions: int = 0
    unparsable: int = 0
    #: Distinct submissions sent to the evaluator (duplicates inside a batch are not).
    evaluations: int = 0
    duplicates: int = 0
    #: Evaluations bench_runner answered from its result cache.
    cache_hits: int = 0
    suspicious: int = 0
    #: Timeout verdicts (a host too loaded for the evaluator's limits shows up here first).
    timeouts: int = 0
    seconds: float = 0.0

    def add(self, other: BatchStats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass
class BatchEvaluator:
    """Scores TRL batches once for all reward components.

    TRL calls each reward function in turn with the same completions; the first call evaluates
    the batch (in parallel, each distinct submission once) and the others read the kept
    outcomes. ``pool_size`` defaults to min(CPU count, distinct submissions of the first batch
    that needs the evaluator); the pool starts lazily and lives until :meth:`close`.
    """

    options: EvalOptions = field(default_factory=EvalOptions)
    weights: Mapping[str, float] = field(default_factory=lambda: dict(WEIGHTS))
    pool_size: int | None = None
    #: Seconds to wait for one batch before calling the evaluator stuck (None: no limit; the
    #: evaluator has its own compile and run limits).
    timeout_s: float | None = None
    evaluate_fn: EvaluateFn = evaluate_submission
    totals: BatchStats = field(default_factory=BatchStats)
    last: BatchStats = field(default_factory=BatchStats)
    _pool: ProcessPoolExecutor | None = field(default=None, repr=False)
    _key: tuple[Any, ...] | None = field(default=None, repr=False)
    _outcomes: list[Outcome] = field(default_factory=list, repr=False)
    _readers: set[str] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        check_weights(self.weights)
        if self.pool_size is not None and self.pool_size < 1:
            raise RewardInputError(f"reward pool size must be at least 1, got {self.pool_size}")

    # -- the public surface ------------------------------------------------------------------

    def reward_funcs(self) -> list[RewardComponent]:
        """One TRL reward function per component, in :data:`COMPONENTS` order."""
        return [RewardComponent(name, self) for name in COMPONENTS]

    def reward_weights(self) -> list[float]:
        """TRL's ``reward_weights``, in the order of :meth:`reward_funcs`."""
        return [float(self.weights[name]) for name in COMPONENTS]

    def score(self, completions: Sequence[Any], tasks: Sequence[str], paths: Sequence[str],
              reader: str | None = None) -> list[Outcome]:
        """The outcome of every completion, evaluated once per batch.

        The kept outcomes answer a call with the same completions, unless ``reader`` (a reward
        component) has already read them: then this is the next batch, which happens to hold
        the same texts, and it is scored (and counted) again — bench_runner's cache answers it.
        """
        if not len(completions) == len(tasks) == len(paths):
            raise RewardInputError(f"a batch of {len(completions)} completions came with {len(tasks)} tasks and "
                                   f"{len(paths)} paths; the dataset needs `task` and `path` columns")
        texts = [completion_text(c) for c in completions]
        key = tuple(zip(tasks, paths, texts, strict=True))
        if key != self._key or (reader is not None and reader in self._readers):
            self._outcomes = self._evaluate_batch(texts, tasks, paths)
            self._key, self._readers = key, set()
        if reader is not None:
            self._readers.add(reader)
        return self._outcomes

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> BatchEvaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------

    def _evaluate_batch(self, texts: list[str], tasks: Sequence[str], paths: Sequence[str]) -> list[Outcome]:
        started = time.monotonic()
        stats = BatchStats(completions=len(texts))
        subs: list[Submission | None] = []
        errors: list[str | None] = []
        for text, task, path in zip(texts, tasks, paths, strict=True):
            try:
                subs.append(parse_completion(text, task, path))
                errors.append(None)
            except SubmissionError as exc:  # SourceRejected is one
                subs.append(None)
                errors.append(str(exc))
        unique = list(dict.fromkeys(s for s in subs if s is not None))
        stats.evaluations = len(unique)
        stats.duplicates = sum(s is not None for s in subs) - len(unique)
        results = self._run(unique)
        outcomes = [Outcome(format_error=err) if sub is None else self._outcome(sub, results[sub])
                    for sub, err in zip(subs, errors, strict=True)]
        stats.unparsable = sum(o.result is None for o in outcomes)
        stats.cache_hits = sum(bool(r.cache.get("hit")) for r in results.values())
        stats.suspicious = sum(bool(o.result and o.result.passed and not vouched(o.result)) for o in outcomes)
        stats.timeouts = sum(r.verdict is Verdict.TIMEOUT for r in results.values())
        stats.seconds = round(time.monotonic() - started, 3)
        self.last = stats
        self.totals.add(stats)
        return outcomes

    def _outcome(self, sub: Submission, result: EvaluationResult) -> Outcome:
        if result.is_infrastructure_failure:
            raise RewardInfrastructureError(
                f"the evaluator failed on task {sub.task} ({sub.path}): system_error: {result.reason or 'no reason'}; "
                "the step is stopped rather than scored 0 (check the host with `akgen doctor`, then resume "
                "from the last checkpoint)")
        return Outcome(result=result)

    def _run(self, unique: list[Submission]) -> dict[Submission, EvaluationResult]:
        if not unique:
            return {}
        pool = self._ensure_pool(len(unique))
        try:
            futures: dict[Submission, Future[dict[str, Any]]] = {
                sub: pool.submit(self.evaluate_fn, sub, self.options) for sub in unique}
        except BrokenProcessPool as exc:
            self._reset_pool()
            raise RewardInfrastructureError(f"the reward process pool is broken: {exc}") from exc
        deadline = None if self.timeout_s is None else time.monotonic() + self.timeout_s
        return {sub: self._collect(sub, fut, deadline) for sub, fut in futures.items()}

    def _collect(self, sub: Submission, fut: Future[dict[str, Any]], deadline: float | None) -> EvaluationResult:
        """One future's result; every failure but the completion's own is infrastructure."""
        where = f"task {sub.task} ({sub.path})"
        try:
            answer = fut.result(timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            self._reset_pool()
            raise RewardInfrastructureError(
                f"the evaluator did not answer for {where} within {self.timeout_s} s (reward_timeout_s); the step "
                "is stopped") from None
        except BrokenProcessPool as exc:
            self._reset_pool()
            raise RewardInfrastructureError(f"a reward worker died while evaluating {where}: {exc}; the step is "
                                            "stopped (out of memory? see the host's logs)") from exc
        except Exception as exc:  # noqa: BLE001 (the evaluate function itself broke in the worker)
            raise RewardInfrastructureError(f"the reward worker failed on {where}: {type(exc).__name__}: {exc}; "
                                            "the step is stopped") from exc
        if answer.get("error") == "input":
            raise RewardInputError(f"{where} cannot be evaluated: {answer.get('type')}: {answer.get('message')}; "
                                   "check the recipe's tasks and path")
        if "result" not in answer:
            raise RewardInfrastructureError(
                f"the evaluator failed on {where}: {answer.get('type')}: {answer.get('message')}; the step is stopped "
                "rather than scored 0 (check the host with `akgen doctor`, then resume from the last checkpoint)")
        return EvaluationResult.from_dict(answer["result"])

    def _ensure_pool(self, wanted: int) -> ProcessPoolExecutor:
        if self._pool is None:
            size = self.pool_size or max(1, min(_cpu_count(), wanted))
            self._pool = ProcessPoolExecutor(max_workers=size,
                                             mp_context=multiprocessing.get_context(POOL_START_METHOD))
        return self._pool

    def _reset_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class RewardComponent:
    """A TRL reward function for one component: ``f(completions, task, path, **kwargs) -> list[float]``.

    The unweighted value; TRL multiplies by ``reward_weights`` and logs ``rewards/<name>/mean``.
    The component whose call scored the batch also logs the batch's counts (``log_metric``:
    ``evaluator/<count>``) and each completion's verdict (``log_extra``, the completions table).
    """

    def __init__(self, name: str, evaluator: BatchEvaluator) -> None:
        if name not in COMPONENTS:
            raise RewardInputError(f"unknown reward component {name!r}; expected {', '.join(COMPONENTS)}")
        self.__name__ = name  # what TRL names the logged reward after
        self.name = name
        self.evaluator = evaluator

    def __call__(self, completions: Sequence[Any], task: Sequence[str], path: Sequence[str],
                 log_metric: Callable[[str, float], None] | None = None,
                 log_extra: Callable[[str, list[Any]], None] | None = None, **_: Any) -> list[float]:
        fresh = self.evaluator.totals.completions
        outcomes = self.evaluator.score(completions, task, path, reader=self.name)
        if self.evaluator.totals.completions != fresh:  # this call scored the batch: log its counts once
            self._log(outcomes, log_metric, log_extra)
        return [o.components()[self.name] for o in outcomes]

    def _log(self, outcomes: list[Outcome], log_metric: Callable[[str, float], None] | None,
             log_extra: Callable[[str, list[Any]], None] | None) -> None:
        if log_metric is not None:
            for name, value in self.evaluator.last.as_dict().items():
                log_metric(f"evaluator/{name}", float(value))
        if log_extra is not None:
            log_extra("verdict", [o.verdict for o in outcomes])

    def __repr__(self) -> str:
        return f"RewardComponent({self.name!r})"
