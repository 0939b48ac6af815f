"""Judge every expert of a suite on all cores: what `akgen suite import-npukb --eval` runs.

Why: evaluating an imported NPUKernelBench (about 160 task variants) one kernel after another
used one of the machine's cores for a quarter of an hour. Each evaluation is independent and
spends its time in sandboxed compiles and runs, so a pool of processes (one per core; spawned,
since the references run torch, which does not survive a fork with threads) judges them side by
side. Each outcome keeps every case's verdict, so a reader can recount a level's figures and the
benchmark's own score (npukb_score.py).
"""

from __future__ import annotations

import multiprocessing
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ExpertOutcome:
    """How one task's expert fared: its verdict, each case's, and what stopped it if anything."""

    slug: str
    level: int
    verdict: str
    compiled: bool = False
    passed: bool = False
    reason: str = ""
    #: "<verdict>: <category>: <name or message>" — the first error, for ranking blockers.
    blocker: str | None = None
    #: case name -> passed, in the task's order
    cases: dict[str, bool] = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        return self.verdict in ("passed", "wrong_answer")

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


#: What an outcome that could not be judged (the reference failed, the expert was refused) says.
NOT_EVALUATED = "not_evaluated"


def judge_expert(slug: str, suite: str | None, path: str = "host_device") -> ExpertOutcome:
    """Evaluate one task's expert (no cache, no baseline: the expert is the baseline)."""
    from bench_runner import tasks
    from bench_runner.errors import SubmissionError, TaskFormatError
    from bench_runner.evaluate import evaluate

    task = tasks.get_task(slug, Path(suite) if suite else None)
    host = task.expert_host.read_text(encoding="utf-8") if path == "host_device" and task.expert_host else None
    try:
        r = evaluate(task, task.expert_kernel.read_text(encoding="utf-8"), host, path=path, use_cache=False,
                     baseline=False)
    except (TaskFormatError, SubmissionError) as exc:  # the reference fails; the expert is refused (size)
        msg = f"{type(exc).__name__}: {str(exc)[:100]}"
        return ExpertOutcome(slug, task.level, NOT_EVALUATED, reason=str(exc)[:300], blocker=msg,
                             cases={c.name: False for c in task.cases})
    except Exception as exc:  # noqa: BLE001 - one task's failure must not end the suite's run
        msg = f"evaluator error: {type(exc).__name__}: {str(exc)[:100]}"
        return ExpertOutcome(slug, task.level, NOT_EVALUATED, reason=msg, blocker=msg,
                             cases={c.name: False for c in task.cases})
    blocker = None
    if not r.passed:
        d = next((d for d in r.diagnostics if d.severity == "error"), None)
        msg = d.message if d is not None else (r.reason or r.verdict)
        name = re.search(r"[‘'`]([^’'`]{1,60})[’'`]", msg)
        blocker = f"{r.verdict}: {d.category if d else '-'}: {name[1] if name else msg[:80]}"
    judged = {c.name: c.passed for c in r.cases}
    return ExpertOutcome(slug, task.level, str(r.verdict), bool(r.compiled), bool(r.passed), r.reason or "",
                         blocker, {c.name: judged.get(c.name, False) for c in task.cases})


def default_workers() -> int:
    """One evaluation per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def judge_experts(slugs: Sequence[str], suite: Path | None, *, workers: int | None = None,
                  on_done: Callable[[ExpertOutcome], None] | None = None) -> list[ExpertOutcome]:
    """Every expert of ``slugs``, ``workers`` at a time (default: all cores); outcomes in the
    order of ``slugs``, ``on_done`` called as each finishes."""
    n = min(len(slugs), workers or default_workers())
    suite_arg = str(suite) if suite else None
    if n <= 1:
        outcomes = []
        for slug in slugs:
            outcomes.append(judge_expert(slug, suite_arg))
            if on_done:
                on_done(outcomes[-1])
        return outcomes
    done: dict[str, ExpertOutcome] = {}
    lost: list[str] = []
    with ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(judge_expert, slug, suite_arg): slug for slug in slugs}
        for fut in as_completed(futures):
            try:
                outcome = fut.result()
            except BrokenProcessPool:  # a worker died (the kernel OOM killer): every pending one is lost
                lost.append(futures[fut])
                continue
            done[futures[fut]] = outcome
            if on_done:
                on_done(outcome)
    # Judged again one at a time, each in a process of its own: the one that dies alone is the
    # one that killed the pool, and it alone is reported so; the run goes on.
    for slug in sorted(lost, key=slugs.index):
        done[slug] = _judge_alone(slug, suite_arg)
        if on_done:
            on_done(done[slug])
    return [done[s] for s in slugs]


def _judge_alone(slug: str, suite_arg: str | None) -> ExpertOutcome:
    from bench_runner import tasks

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            return pool.submit(judge_expert, slug, suite_arg).result()
        except BrokenProcessPool:
            pass
    level, cases = 0, {}
    try:
        task = tasks.get_task(slug, Path(suite_arg) if suite_arg else None)
        level, cases = task.level, {c.name: False for c in task.cases}
    except Exception:  # noqa: BLE001 - the outcome below says what happened either way
        pass
    msg = ("evaluator error: the process judging this task died (killed, most likely out of memory: "
           "its largest case needs more than this machine has)")
    return ExpertOutcome(slug, level, NOT_EVALUATED, reason=msg, blocker=msg, cases=cases)
