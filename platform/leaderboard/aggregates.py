"""The one writer of every derived number: run × task stats, failure counts, task verdict counts
and ranked kernels.

Two paths write them and must agree: ``record_ended`` counts one evaluation as it ends (inside the
transaction that ended it, with what the pipeline already knows, so nothing is re-read), and
``rebuild`` recomputes a scope from the evaluations. The rules both apply sit together below:

* an evaluation *counts* once it has ended (status done: judged; status failed: unjudged) and
  its submission is not quarantined;
* *judged* samples are the denominators of pass@k; *unjudged* ones (the infrastructure failed
  after every retry) are counted apart and shown, never silently dropped;
* a kernel is *ranked* when it passed with a positive finite speedup and is public;
* *flagged* is the evaluator's ``suspicious`` from the record. A flagged speedup is not *vouched*
  for: it counts in no speedup figure (a run's speedups and fast_p, a task's best, the boards)
  until a reviewer's Dismissal (its own row) vouches for it; its correctness counts as usual.

Human decisions (Quarantine, Dismissal, Report) are never written here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, F, Max, OuterRef, Q, Sum, Value
from django.db.models.functions import Coalesce, Greatest, Ln
from django.utils import timezone

from leaderboard.models import (
    Dismissal,
    FailureCount,
    Quarantine,
    RankedKernel,
    RunTaskStat,
    TaskVerdictCount,
)
from submissions.models import EvalStatus, Evaluation, Visibility

#: The verdict an unjudged sample is counted under.
UNJUDGED_VERDICT = "system_error"


@dataclass(frozen=True, slots=True)
class Sample:
    """What is counted about an evaluation's submission and target, read once when a worker
    claims it (workers.pipeline), so counting it re-reads nothing."""

    submission_id: int
    run_id: int | None
    task_id: int
    task_version_id: int
    path: str
    visibility: str
    author_id: int | None
    submitted_at: datetime
    toolchain: str
    soc: str

    #: The Evaluation fields (through its submission) that of() reads: load only these.
    FIELDS = ("toolchain", "soc", "submission__id", "submission__run_id", "submission__task_id",
              "submission__task_version_id", "submission__path", "submission__visibility",
              "submission__author_id", "submission__created_at")

    @classmethod
    def of(cls, ev: Evaluation) -> Sample:
        sub = ev.submission
        return cls(sub.pk, sub.run_id, sub.task_id, sub.task_version_id, sub.path, sub.visibility, sub.author_id,
                   sub.created_at, ev.toolchain, ev.soc)


@dataclass(frozen=True, slots=True)
class Ended:
    """An evaluation that just ended: its sample and the outcome the pipeline stored."""

    evaluation_id: int
    sample: Sample
    #: False: no verdict (the infrastructure failed after every retry, or the input was refused).
    judged: bool
    verdict: str
    compiled: bool = False
    passed: bool = False
    speedup: float | None = None
    failure_category: str = ""
    suspicious: bool = False


def has_speedup(passed: bool | None, speedup: float | None) -> bool:
    """The ranking rule for one sample (the rebuild's SQL form is RANKED_Q below)."""
    return bool(passed) and speedup is not None and math.isfinite(speedup) and speedup > 0


#: has_speedup as a filter on evaluations (speedups are stored finite or NULL).
HAS_SPEED_Q = Q(passed=True, speedup__gt=0)
#: The record did not call it suspicious, or a reviewer dismissed the flag.
VOUCHED_Q = Q(suspicious=False) | Q(submission__dismissal__isnull=False)
#: A speedup that counts in a run's speedup figures.
SPEED_Q = HAS_SPEED_Q & VOUCHED_Q
#: The rows of RankedKernel (flagged ones included: the review page lists them; boards filter).
RANKED_Q = HAS_SPEED_Q & Q(submission__visibility=Visibility.PUBLIC)
ENDED_STATUSES = (EvalStatus.DONE, EvalStatus.FAILED)


def _bump(model, key: dict[str, Any], changes: dict[str, Any], initial: dict[str, Any]) -> None:
    """Add to an aggregate row, creating it on first use; safe under concurrent finishers.

    QuerySet.update skips auto_now, so updated_at is set here: cached boards key on it.
    """
    changes = {**changes, "updated_at": timezone.now()}
    if model.objects.filter(**key).update(**changes):
        return
    try:
        with transaction.atomic():
            model.objects.create(**key, **initial)
    except IntegrityError:  # another worker created it first
        model.objects.filter(**key).update(**changes)


def record_ended(e: Ended) -> None:
    """Count one ended evaluation everywhere it counts (call inside the transaction that ended it).

    A quarantined submission's evaluation still ends and is stored, but is counted nowhere.
    """
    x = e.sample
    if Quarantine.objects.filter(submission_id=x.submission_id).exists():
        return
    ranked = e.judged and has_speedup(e.passed, e.speedup)
    vouched = not e.suspicious or Dismissal.objects.filter(submission_id=x.submission_id).exists()
    if x.run_id is not None:
        _bump(RunTaskStat, {"run_id": x.run_id, "task_id": x.task_id, "path": x.path, "toolchain": x.toolchain,
                            "soc": x.soc}, *_run_stat_change(e, ranked and vouched))
    if e.judged and e.failure_category:
        _bump(FailureCount, {"run_id": x.run_id, "toolchain": x.toolchain, "category": e.failure_category},
              {"count": F("count") + 1}, {"count": 1})
    verdict = e.verdict if e.judged else UNJUDGED_VERDICT
    _bump(TaskVerdictCount, {"task_version_id": x.task_version_id, "toolchain": x.toolchain, "soc": x.soc,
                             "verdict": verdict, "compiled": bool(e.compiled) and e.judged},
          {"count": F("count") + 1}, {"task_id": x.task_id, "count": 1})
    if ranked and x.visibility == Visibility.PUBLIC:
        RankedKernel.objects.get_or_create(evaluation_id=e.evaluation_id, defaults={
            "submission_id": x.submission_id, "task_id": x.task_id, "task_version_id": x.task_version_id,
            "author_id": x.author_id, "run_id": x.run_id, "toolchain": x.toolchain, "soc": x.soc,
            "speedup": e.speedup, "submitted_at": x.submitted_at, "flagged": e.suspicious, "quarantined": False,
        })


def _run_stat_change(e: Ended, ranked: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    if not e.judged:
        return {"n_unjudged": F("n_unjudged") + 1}, {"n_unjudged": 1}
    changes: dict[str, Any] = {"n": F("n") + 1}
    initial: dict[str, Any] = {"n": 1, "n_compiled": int(bool(e.compiled)), "n_passed": int(bool(e.passed))}
    if e.compiled:
        changes["n_compiled"] = F("n_compiled") + 1
    if e.passed:
        changes["n_passed"] = F("n_passed") + 1
    if ranked:
        s = e.speedup
        changes.update(best_speedup=Greatest(Coalesce(F("best_speedup"), Value(s)), Value(s)),
                       speedup_count=F("speedup_count") + 1, speedup_sum=F("speedup_sum") + s,
                       speedup_log_sum=F("speedup_log_sum") + math.log(s))
        initial.update(best_speedup=s, speedup_count=1, speedup_sum=s, speedup_log_sum=math.log(s))
    return changes, initial


# --- rebuilding ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """What a rebuild recomputes: everything, or the rows a set of runs / task versions touch.

    ``people`` also recomputes the run-less failure counts (people's submissions).
    """

    run_ids: tuple[int, ...] | None = None
    task_version_ids: tuple[int, ...] | None = None
    people: bool = False

    @property
    def everything(self) -> bool:
        return self.run_ids is None and self.task_version_ids is None and not self.people

    @classmethod
    def of_submission(cls, submission) -> Scope:
        """The rows one submission's evaluations can be counted in."""
        runs = (submission.run_id,) if submission.run_id is not None else ()
        return cls(run_ids=runs, task_version_ids=(submission.task_version_id,), people=submission.run_id is None)


def _ended():
    return Evaluation.objects.filter(status__in=ENDED_STATUSES)


def _counted():
    return _ended().exclude(Exists(Quarantine.objects.filter(submission=OuterRef("submission"))))


@transaction.atomic
def rebuild(scope: Scope | None = None) -> dict[str, int]:
    """Recompute the aggregates of `scope` (default: everything) from the evaluations; returns
    the number of rows written per table."""
    scope = scope or Scope()
    out = {"run_task_stats": 0, "failure_counts": 0, "task_verdict_counts": 0, "ranked_kernels": 0}
    runs = None if scope.everything else (scope.run_ids or ())  # None: every run
    versions = None if scope.everything else (scope.task_version_ids or ())
    people = scope.everything or scope.people
    if runs is None or runs:
        out["run_task_stats"] = _rebuild_run_stats(runs)
    if runs is None or runs or people:
        out["failure_counts"] = _rebuild_failures(runs, people)
    if versions is None or versions:
        out["task_verdict_counts"] = _rebuild_verdict_counts(versions)
        out["ranked_kernels"] = _rebuild_ranked(versions)
    return out


def _rebuild_run_stats(run_ids: Iterable[int] | None) -> int:
    rows = RunTaskStat.objects.all()
    source = _counted().filter(submission__run__isnull=False)
    if run_ids is not None:
        rows, source = rows.filter(run_id__in=run_ids), source.filter(submission__run_id__in=run_ids)
    rows.delete()
    judged = Q(status=EvalStatus.DONE)
    speed = judged & SPEED_Q
    stats = (source.values("submission__run_id", "submission__task_id", "submission__path", "toolchain", "soc")
             .annotate(n=Count("pk", filter=judged), n_compiled=Count("pk", filter=judged & Q(compiled=True)),
                       n_passed=Count("pk", filter=judged & Q(passed=True)),
                       n_unjudged=Count("pk", filter=Q(status=EvalStatus.FAILED)),
                       best=Max("speedup", filter=speed), sc=Count("pk", filter=speed),
                       ss=Sum("speedup", filter=speed), sls=Sum(Ln("speedup"), filter=speed)))
    made = RunTaskStat.objects.bulk_create([
        RunTaskStat(run_id=r["submission__run_id"], task_id=r["submission__task_id"], path=r["submission__path"],
                    toolchain=r["toolchain"], soc=r["soc"], n=r["n"], n_compiled=r["n_compiled"],
                    n_passed=r["n_passed"], n_unjudged=r["n_unjudged"], best_speedup=r["best"],
                    speedup_count=r["sc"], speedup_sum=r["ss"] or 0.0, speedup_log_sum=r["sls"] or 0.0)
        for r in stats.iterator(chunk_size=5000)
    ], batch_size=2000)
    return len(made)


def _rebuild_failures(run_ids: Iterable[int] | None, people: bool) -> int:
    """Failure counts of `run_ids` (None: every run) and, with `people`, of run-less submissions."""
    rows, parts = FailureCount.objects.none(), Q(pk__in=[])
    source = _counted().filter(status=EvalStatus.DONE).exclude(failure_category="")
    if run_ids is None:
        rows, parts = FailureCount.objects.filter(run__isnull=False), Q(submission__run__isnull=False)
    elif run_ids:
        rows, parts = FailureCount.objects.filter(run_id__in=run_ids), Q(submission__run_id__in=run_ids)
    if people:
        rows = rows | FailureCount.objects.filter(run__isnull=True)
        parts |= Q(submission__run__isnull=True)
    rows.delete()
    counts = source.filter(parts).values("submission__run_id", "toolchain", "failure_category").annotate(n=Count("pk"))
    made = FailureCount.objects.bulk_create([
        FailureCount(run_id=r["submission__run_id"], toolchain=r["toolchain"], category=r["failure_category"],
                     count=r["n"]) for r in counts
    ], batch_size=2000)
    return len(made)


def _rebuild_verdict_counts(task_version_ids: Iterable[int] | None) -> int:
    rows, source = TaskVerdictCount.objects.all(), _counted()
    if task_version_ids is not None:
        rows = rows.filter(task_version_id__in=task_version_ids)
        source = source.filter(submission__task_version_id__in=task_version_ids)
    rows.delete()
    # An unjudged row's verdict is system_error already (the pipeline sets it); never compiled.
    counts = (source.values("submission__task_version_id", "submission__task_id", "toolchain", "soc", "verdict",
                            "status", "compiled").annotate(n=Count("pk")))
    merged: dict[tuple, list] = {}
    for r in counts.iterator(chunk_size=5000):
        judged = r["status"] == EvalStatus.DONE
        key = (r["submission__task_version_id"], r["toolchain"], r["soc"],
               r["verdict"] if judged else UNJUDGED_VERDICT, bool(r["compiled"]) and judged)
        merged.setdefault(key, [r["submission__task_id"], 0])[1] += r["n"]
    made = TaskVerdictCount.objects.bulk_create([
        TaskVerdictCount(task_version_id=k[0], toolchain=k[1], soc=k[2], verdict=k[3], compiled=k[4], task_id=v[0],
                         count=v[1]) for k, v in merged.items()
    ], batch_size=2000)
    return len(made)


def _rebuild_ranked(task_version_ids: Iterable[int] | None) -> int:
    rows = RankedKernel.objects.all()
    source = (Evaluation.objects.filter(RANKED_Q, status=EvalStatus.DONE)
              .annotate(is_quarantined=Exists(Quarantine.objects.filter(submission=OuterRef("submission"))))
              .select_related("submission"))
    if task_version_ids is not None:
        rows = rows.filter(task_version_id__in=task_version_ids)
        source = source.filter(submission__task_version_id__in=task_version_ids)
    rows.delete()
    batch, n = [], 0
    for ev in source.iterator(chunk_size=5000):
        sub = ev.submission
        batch.append(RankedKernel(
            evaluation_id=ev.pk, submission_id=sub.pk, task_id=sub.task_id, task_version_id=sub.task_version_id,
            author_id=sub.author_id, run_id=sub.run_id, toolchain=ev.toolchain, soc=ev.soc, speedup=ev.speedup,
            submitted_at=sub.created_at, flagged=ev.suspicious, quarantined=ev.is_quarantined))
        if len(batch) >= 2000:
            RankedKernel.objects.bulk_create(batch)
            n, batch = n + len(batch), []
    RankedKernel.objects.bulk_create(batch)
    return n + len(batch)


def recount_submission(submission) -> None:
    """Recount what a quarantine decision (made or lifted) changes: the submission's scope."""
    rebuild(Scope.of_submission(submission))
