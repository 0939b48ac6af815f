"""What workers run for one evaluation: claim it, keep the lease while the evaluator runs, record
the verdict, or count an infrastructure failure; and the reconciler's repairs.

The database is the source of truth: workers claim rows with an attempt counter and a lease,
and finish them only while their attempt is current, so a redelivered message or a worker that
lost its lease can never overwrite a verdict. A lost message or a dead worker is repaired by
reconcile_stuck (workers.reconcile runs it). Finishing records the result everywhere it
counts (leaderboard aggregates, the task list's counters) in the same transaction.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from leaderboard.metrics import failure_category
from leaderboard.services import leaderboard_record
from leaderboard.task_stats import RANKED_TOOLCHAIN, task_stats_record
from submissions.models import EvalStatus, Evaluation, Visibility
from submissions.queueing import evaluation_send

logger = logging.getLogger(__name__)

MAX_INFRA_FAILURES = 3


def lease() -> timedelta:
    """How long a claim holds without renewal; a worker that stops renewing loses it."""
    return timedelta(seconds=settings.AKGEN_EVAL_LEASE_S)


@dataclass(frozen=True)
class Claim:
    evaluation_id: int
    attempt: int


def evaluation_claim(*, evaluation_id: int, worker: str) -> Claim | None:
    """Take the evaluation if it is queued or its lease expired; None if someone else has it or it is done."""
    now = timezone.now()
    claimable = Q(status=EvalStatus.QUEUED) | Q(status=EvalStatus.RUNNING, lease_until__lt=now)
    taken = Evaluation.objects.filter(claimable, pk=evaluation_id).update(
        status=EvalStatus.RUNNING, attempt=F("attempt") + 1, lease_until=now + lease(),
        worker=worker, started_at=now, stage="preparing",
    )
    if not taken:
        return None
    attempt = Evaluation.objects.values_list("attempt", flat=True).get(pk=evaluation_id)
    return Claim(evaluation_id, attempt)


def _mine(claim: Claim):
    return Evaluation.objects.filter(pk=claim.evaluation_id, attempt=claim.attempt, status=EvalStatus.RUNNING)


def evaluation_renew(claim: Claim) -> bool:
    return bool(_mine(claim).update(lease_until=timezone.now() + lease()))


def evaluation_set_stage(claim: Claim, stage: str) -> None:
    _mine(claim).update(stage=stage, lease_until=timezone.now() + lease())


def evaluation_finish(claim: Claim, result: dict[str, Any]) -> bool:
    """Store a verdict; False if this attempt lost the row (another worker took over)."""
    perf = result.get("perf") or {}
    verdict = result.get("verdict", "")
    passed = verdict == "passed"
    speedup = _number(result.get("speedup"), float)
    with transaction.atomic():
        if not _mine(claim).update(
            status=EvalStatus.DONE, stage="", verdict=verdict, result=result,
            compiled=verdict not in ("compile_error", "system_error", "sandbox_violation") and bool(verdict),
            passed=passed, speedup=speedup, cycles=_number(perf.get("cycles"), int),
            failure_category=failure_category(verdict, result), finished_at=timezone.now(), lease_until=None,
        ):
            return False
        row = (Evaluation.objects.filter(pk=claim.evaluation_id)
               .values("toolchain", "submission__task_version_id", "submission__visibility").get())
        task_stats_record(
            task_version_id=row["submission__task_version_id"], passed=passed, speedup=speedup,
            ranked=row["toolchain"] == RANKED_TOOLCHAIN and row["submission__visibility"] == Visibility.PUBLIC,
        )
        leaderboard_record(claim.evaluation_id)
    return True


def _number(value: Any, kind: type):
    """A finite number or None: the verdict must land even if a metric is odd."""
    try:
        number = kind(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def evaluation_fail_infra(claim: Claim, reason: str) -> Evaluation | None:
    """Our fault, not the submitter's: queue again, or give up after MAX_INFRA_FAILURES."""
    with transaction.atomic():
        row = _mine(claim).select_for_update().first()
        if row is None:
            return None
        _requeue_or_fail(row, reason)
    return row


def _requeue_or_fail(row: Evaluation, reason: str) -> None:
    row.infra_failures += 1
    row.error = reason[:2000]
    row.lease_until = None
    row.stage = ""
    if row.infra_failures >= MAX_INFRA_FAILURES:
        row.status = EvalStatus.FAILED
        row.verdict = "system_error"
        row.finished_at = timezone.now()
        row.save()
        return
    row.status = EvalStatus.QUEUED
    row.enqueued_at = timezone.now()
    row.save()
    transaction.on_commit(lambda: evaluation_send(row))


@contextmanager
def lease_keeper(claim: Claim) -> Iterator[None]:
    """Renew the lease in a background thread (every third of it) while the evaluation runs."""
    every_s = settings.AKGEN_EVAL_LEASE_S / 3
    stop = threading.Event()

    def renew() -> None:
        try:
            while not stop.wait(every_s):
                try:
                    evaluation_renew(claim)
                except Exception:
                    logger.warning("lease renewal failed for %s", claim, exc_info=True)
        finally:
            connection.close()

    thread = threading.Thread(target=renew, name=f"lease-{claim.evaluation_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


def reconcile_stuck(*, queued_for: timedelta = timedelta(minutes=2)) -> int:
    """Re-send queued evaluations whose message may be lost; recover rows of dead workers."""
    now = timezone.now()
    count = 0
    stale_queued = Evaluation.objects.filter(
        Q(enqueued_at__lt=now - queued_for) | Q(enqueued_at__isnull=True), status=EvalStatus.QUEUED
    )
    for evaluation in stale_queued.iterator():
        Evaluation.objects.filter(pk=evaluation.pk, status=EvalStatus.QUEUED).update(enqueued_at=now)
        evaluation_send(evaluation)
        count += 1
    expired = Evaluation.objects.filter(status=EvalStatus.RUNNING, lease_until__lt=now).values_list("pk", flat=True)
    for pk in list(expired):
        with transaction.atomic():
            row = (Evaluation.objects.select_for_update(skip_locked=True)
                   .filter(pk=pk, status=EvalStatus.RUNNING, lease_until__lt=now).first())
            if row is None:
                continue
            _requeue_or_fail(row, f"worker {row.worker or '?'} stopped renewing its lease (attempt {row.attempt})")
            count += 1
    return count


def queued_count() -> int:
    return Evaluation.objects.filter(status=EvalStatus.QUEUED).count()

