"""Keeping the leaderboard aggregates: counted as each evaluation finishes, rebuilt on demand,
and corrected when staff quarantine a result."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, F, Max, OuterRef, Q, Sum, Value
from django.db.models.functions import Coalesce, Greatest, Ln
from django.utils import timezone

from leaderboard.models import FailureCount, Quarantine, RankedKernel, Report, RunTaskStat
from leaderboard.task_stats import task_stats_rebuild
from submissions.models import EvalStatus, Evaluation, Submission, Visibility


class NotAllowed(Exception):
    """The user may not do this (e.g. quarantine without being staff)."""


class ReportRejected(Exception):
    """A report that cannot be filed as it is (empty reason, already quarantined …)."""


def suspicious_speedup() -> float:
    """Speedups above this are flagged for a staff look (a kernel that skips work is fast)."""
    return float(getattr(settings, "AKGEN_SUSPICIOUS_SPEEDUP", 8.0))


def _has_speedup(passed: bool, speedup: float | None) -> bool:
    return bool(passed) and speedup is not None and speedup > 0 and math.isfinite(speedup)


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


def leaderboard_record(evaluation_id: int) -> None:
    """Count one finished evaluation (call inside the transaction that finished it).

    Quarantined submissions are not counted; their evaluations still finish and are stored.
    """
    ev = (Evaluation.objects.select_related("submission")
          .annotate(is_quarantined=Exists(Quarantine.objects.filter(submission=OuterRef("submission"))))
          .get(pk=evaluation_id))
    sub = ev.submission
    if ev.status != EvalStatus.DONE or ev.is_quarantined:
        return
    if sub.run_id is not None:
        with_speed = _has_speedup(ev.passed, ev.speedup)
        changes = {"n": F("n") + 1}
        initial = {"n": 1, "n_compiled": int(bool(ev.compiled)), "n_passed": int(bool(ev.passed))}
        if ev.compiled:
            changes["n_compiled"] = F("n_compiled") + 1
        if ev.passed:
            changes["n_passed"] = F("n_passed") + 1
        if with_speed:
            changes.update(
                best_speedup=Greatest(Coalesce(F("best_speedup"), Value(ev.speedup)), Value(ev.speedup)),
                speedup_count=F("speedup_count") + 1, speedup_sum=F("speedup_sum") + ev.speedup,
                speedup_log_sum=F("speedup_log_sum") + math.log(ev.speedup),
            )
            initial.update(best_speedup=ev.speedup, speedup_count=1, speedup_sum=ev.speedup,
                           speedup_log_sum=math.log(ev.speedup))
        _bump(RunTaskStat, {"run_id": sub.run_id, "task_id": sub.task_id, "path": sub.path,
                            "toolchain": ev.toolchain, "soc": ev.soc}, changes, initial)
    if ev.failure_category:
        _bump(FailureCount, {"run_id": sub.run_id, "toolchain": ev.toolchain, "category": ev.failure_category},
              {"count": F("count") + 1}, {"count": 1})
    if sub.visibility == Visibility.PUBLIC and _has_speedup(ev.passed, ev.speedup):
        RankedKernel.objects.get_or_create(evaluation_id=ev.pk, defaults=_ranked_fields(ev, sub))


def _ranked_fields(ev: Evaluation, sub: Submission, *, quarantined: bool = False) -> dict[str, Any]:
    return {
        "submission_id": sub.pk, "task_id": sub.task_id, "task_version_id": sub.task_version_id,
        "author_id": sub.author_id, "run_id": sub.run_id, "toolchain": ev.toolchain, "soc": ev.soc,
        "speedup": ev.speedup, "submitted_at": sub.created_at,
        "flagged": ev.speedup > suspicious_speedup(), "quarantined": quarantined,
    }


# --- rebuilding ----------------------------------------------------------------------------------


def _judged(run_ids: Iterable[int] | None):
    done = Evaluation.objects.filter(status=EvalStatus.DONE)
    if run_ids is not None:
        done = done.filter(submission__run_id__in=list(run_ids))
    return done


def _counted(run_ids: Iterable[int] | None):
    return _judged(run_ids).exclude(Exists(Quarantine.objects.filter(submission=OuterRef("submission"))))


@transaction.atomic
def leaderboard_rebuild(*, run_ids: Iterable[int] | None = None) -> dict[str, int]:
    """Recompute every aggregate from the evaluations (all runs, or only `run_ids`).

    `run_ids` also rebuilds those runs' ranked kernels but leaves people's (run-less) rows alone.
    """
    run_ids = list(run_ids) if run_ids is not None else None
    stat_rows = RunTaskStat.objects.all()
    fail_rows = FailureCount.objects.all()
    ranked_rows = RankedKernel.objects.all()
    if run_ids is not None:
        stat_rows, fail_rows = stat_rows.filter(run_id__in=run_ids), fail_rows.filter(run_id__in=run_ids)
        ranked_rows = ranked_rows.filter(run_id__in=run_ids)
    stat_rows.delete()
    fail_rows.delete()
    ranked_rows.delete()

    speed = Q(passed=True, speedup__gt=0)
    stats = (
        _counted(run_ids).filter(submission__run__isnull=False)
        .values("submission__run_id", "submission__task_id", "submission__path", "toolchain", "soc")
        .annotate(n=Count("pk"), n_compiled=Count("pk", filter=Q(compiled=True)),
                  n_passed=Count("pk", filter=Q(passed=True)), best=Max("speedup", filter=speed),
                  sc=Count("pk", filter=speed), ss=Sum("speedup", filter=speed),
                  sls=Sum(Ln("speedup"), filter=speed))
    )
    RunTaskStat.objects.bulk_create([
        RunTaskStat(run_id=r["submission__run_id"], task_id=r["submission__task_id"], path=r["submission__path"],
                    toolchain=r["toolchain"], soc=r["soc"], n=r["n"], n_compiled=r["n_compiled"],
                    n_passed=r["n_passed"], best_speedup=r["best"], speedup_count=r["sc"],
                    speedup_sum=r["ss"] or 0.0, speedup_log_sum=r["sls"] or 0.0)
        for r in stats.iterator(chunk_size=5000)
    ], batch_size=2000)

    failures = (_counted(run_ids).exclude(failure_category="")
                .values("submission__run_id", "toolchain", "failure_category").annotate(n=Count("pk")))
    FailureCount.objects.bulk_create([
        FailureCount(run_id=r["submission__run_id"], toolchain=r["toolchain"], category=r["failure_category"],
                     count=r["n"])
        for r in failures
        if run_ids is None or r["submission__run_id"] is not None
    ], batch_size=2000)

    ranked = (_judged(run_ids).filter(passed=True, speedup__gt=0, submission__visibility=Visibility.PUBLIC)
              .annotate(is_quarantined=Exists(Quarantine.objects.filter(submission=OuterRef("submission"))))
              .select_related("submission"))
    if run_ids is not None:
        ranked = ranked.filter(submission__run__isnull=False)
    batch, n_ranked = [], 0
    for ev in ranked.iterator(chunk_size=5000):
        batch.append(RankedKernel(evaluation_id=ev.pk, **_ranked_fields(ev, ev.submission,
                                                                         quarantined=ev.is_quarantined)))
        if len(batch) >= 2000:
            RankedKernel.objects.bulk_create(batch)
            n_ranked += len(batch)
            batch = []
    RankedKernel.objects.bulk_create(batch)
    n_ranked += len(batch)
    return {"run_task_stats": RunTaskStat.objects.count(), "failure_counts": FailureCount.objects.count(),
            "ranked_kernels": n_ranked}


def _rebuild_people_failures() -> None:
    FailureCount.objects.filter(run__isnull=True).delete()
    rows = (_counted(None).filter(submission__run__isnull=True).exclude(failure_category="")
            .values("toolchain", "failure_category").annotate(n=Count("pk")))
    FailureCount.objects.bulk_create([FailureCount(run_id=None, toolchain=r["toolchain"],
                                                   category=r["failure_category"], count=r["n"]) for r in rows])


# --- quarantine and reports ------------------------------------------------------------------------


@transaction.atomic
def quarantine_submission(*, submission: Submission, reason: str, by, evidence: dict | None = None) -> Quarantine:
    """Hide a result from every ranking, keeping it and saying why to its owner."""
    if not getattr(by, "is_staff", False):
        raise NotAllowed("Only staff can quarantine results.")
    reason = (reason or "").strip()
    if not reason:
        raise ReportRejected("Say why the result is quarantined: its owner will read it.")
    found = {"reports": list(submission.reports.values("reporter_id", "reason", "created_at"))}
    record, _ = Quarantine.objects.update_or_create(
        submission=submission,
        defaults={"reason": reason, "created_by": by,
                  "evidence": json.loads(json.dumps({**found, **(evidence or {})}, cls=DjangoJSONEncoder))},
    )
    _recount_after(submission, quarantined=True)
    Report.objects.filter(submission=submission).update(resolved=True)
    return record


@transaction.atomic
def quarantine_lift(*, submission: Submission, by) -> None:
    if not getattr(by, "is_staff", False):
        raise NotAllowed("Only staff can lift a quarantine.")
    Quarantine.objects.filter(submission=submission).delete()
    _recount_after(submission, quarantined=False)


def _recount_after(submission: Submission, *, quarantined: bool) -> None:
    RankedKernel.objects.filter(submission=submission).update(quarantined=quarantined)
    task_stats_rebuild(task_version_ids=[submission.task_version_id])  # the task list's best speedup
    if submission.run_id is not None:
        leaderboard_rebuild(run_ids=[submission.run_id])
    else:
        _rebuild_people_failures()


def report_submit(*, submission: Submission, reporter, reason: str) -> Report:
    reason = (reason or "").strip()
    if len(reason) < 10:
        raise ReportRejected("Describe the problem in a sentence (at least 10 characters) so staff can check it.")
    if Quarantine.objects.filter(submission=submission).exists():
        raise ReportRejected("This result is already quarantined.")
    return Report.objects.create(submission=submission, reporter=reporter, reason=reason[:2000])
