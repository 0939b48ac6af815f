"""What workers run for one evaluation: claim it, keep the lease while the evaluator runs, record
the verdict, or count an infrastructure failure; and the reconciler's repairs.

The database is the source of truth: workers claim rows with an attempt counter and a lease,
and finish them only while their attempt is current, so a redelivered message or a worker that
lost its lease can never overwrite a verdict. A lost message or a dead worker is repaired by
reconcile_stuck (workers.reconcile runs it). Finishing stores the evaluator's record
(bench_runner.contracts) as it is and counts it through leaderboard.aggregates, its one
writer, in the same transaction. Only infrastructure failures are retried; after
MAX_INFRA_FAILURES, or at once when the evaluator refuses the input, an evaluation ends
unjudged (status failed, verdict system_error) and is counted as such, never dropped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Min, Q
from django.utils import timezone

from bench_runner.contracts import EvaluationResult, Verdict, bounded, number
from leaderboard import aggregates
from leaderboard.aggregates import Ended, Sample
from submissions.models import REFUSED_PREFIX, EvalStatus, Evaluation
from submissions.queueing import evaluation_send
from submissions.selectors import worker_seconds_by_author
from submissions.waiting import lease_expired

logger = logging.getLogger(__name__)

MAX_INFRA_FAILURES = 3


def lease() -> timedelta:
    """How long a claim holds without renewal; a worker that stops renewing loses it."""
    return timedelta(seconds=settings.AKGEN_EVAL_LEASE_S)


@dataclass(frozen=True)
class Claim:
    """A worker's hold on one evaluation: the attempt that may finish it, and what it judges
    (read once, at claim time, so finishing re-reads nothing)."""

    evaluation_id: int
    attempt: int
    sample: Sample


def evaluation_claim(*, evaluation_id: int, worker: str) -> Claim | None:
    """Take the evaluation if it is queued or its lease expired; None if someone else has it or it is done."""
    now = timezone.now()
    claimable = Q(status=EvalStatus.QUEUED) | lease_expired(now)
    taken = Evaluation.objects.filter(claimable, pk=evaluation_id).update(
        status=EvalStatus.RUNNING, attempt=F("attempt") + 1, lease_until=now + lease(),
        worker=worker, started_at=now, stage="preparing",
    )
    if not taken:
        return None
    ev = Evaluation.objects.select_related("submission").only("attempt", *Sample.FIELDS).get(pk=evaluation_id)
    return Claim(evaluation_id, ev.attempt, Sample.of(ev))


def fairness_window() -> timedelta:
    return timedelta(seconds=settings.AKGEN_FAIRNESS_WINDOW_S)


def evaluation_claim_fair(*, toolchain: str, worker: str, hint: int | None = None) -> Claim | None:
    """Take the queued evaluation of ``toolchain`` that is fairest to run next, or None.

    A message is a ticket for one unit of work, not for a particular row: the worker that gets
    it serves the submitter whose evaluations took the least worker time within the fairness
    window (AKGEN_FAIRNESS_WINDOW_S; running ones count until now, so 20 compile bombs weigh
    what they burn, not 20), ties to whoever has waited longest, and takes that
    submitter's oldest queued evaluation (the message's own, ``hint``, when it is theirs). One
    submitter's flood then delays only that submitter: another's kernel waits at most for the
    evaluations already running. Every evaluation sends one message and each message takes one
    evaluation, so none is left behind (the reconciler re-sends for any that are). Works on
    PostgreSQL and SQLite alike: a lost race moves on to the next candidate.
    """
    queued = Evaluation.objects.filter(status=EvalStatus.QUEUED, toolchain=toolchain)
    waiting = {r["submission__author"]: r["oldest"] for r in
               queued.values("submission__author").annotate(oldest=Min("enqueued_at")).order_by()}
    if not waiting:
        return None
    served = worker_seconds_by_author(since=timezone.now() - fairness_window(), authors=list(waiting))
    far_past = timezone.now() - timedelta(days=3650)
    order = sorted(waiting, key=lambda a: (served.get(a, 0.0), waiting[a] or far_past, a or 0))
    hinted = queued.filter(pk=hint).values_list("submission__author", flat=True).first() if hint else None
    for author in order[:FAIR_CANDIDATES]:
        mine = queued.filter(submission__author=author) if author is not None else queued.filter(
            submission__author__isnull=True)
        picks = ([hint] if hint and hinted == author else []) + list(
            mine.order_by("enqueued_at", "pk").values_list("pk", flat=True)[:FAIR_CANDIDATES])
        for pk in picks:
            claim = evaluation_claim(evaluation_id=pk, worker=worker)
            if claim is not None:
                return claim
    return None


#: How many submitters (and evaluations of each) a worker tries before giving up on a message.
FAIR_CANDIDATES = 8


def _mine(claim: Claim):
    return Evaluation.objects.filter(pk=claim.evaluation_id, attempt=claim.attempt, status=EvalStatus.RUNNING)


def evaluation_renew(claim: Claim) -> bool:
    return bool(_mine(claim).update(lease_until=timezone.now() + lease()))


def evaluation_set_stage(claim: Claim, stage: str) -> None:
    _mine(claim).update(stage=stage, lease_until=timezone.now() + lease())


def evaluation_finish(claim: Claim, record: EvaluationResult) -> bool:
    """Store the evaluator's verdict as its record says it, and count it, in one transaction.

    False if this attempt lost the row (another worker took over). Nothing here re-derives what
    the record says: compiled, passed, the failure category and suspicious are the record's. A
    system_error is not a verdict: the caller hands it to evaluation_fail_infra (ValueError here).
    """
    if record.is_infrastructure_failure:
        raise ValueError("a system_error result is an infrastructure failure: call evaluation_fail_infra")
    record = bounded(record)  # a record from another host obeys the same size limit
    payload = record.to_dict()  # strict JSON: every JSON store accepts it
    speedup = record.speedup if aggregates.has_speedup(True, record.speedup) else None
    cycles = number((record.perf or {}).get("cycles"))
    with transaction.atomic():
        if not _mine(claim).update(
            status=EvalStatus.DONE, stage="", verdict=record.verdict, result=payload, compiled=record.compiled,
            passed=record.passed, speedup=speedup, cycles=int(cycles) if cycles is not None else None,
            failure_category=record.failure_category, suspicious=record.suspicious, finished_at=timezone.now(),
            lease_until=None, error="",
        ):
            return False
        aggregates.record_ended(Ended(
            claim.evaluation_id, claim.sample, judged=True, verdict=record.verdict, compiled=record.compiled,
            passed=record.passed, speedup=speedup, failure_category=record.failure_category,
            suspicious=record.suspicious))
    return True


def evaluation_fail_infra(claim: Claim, reason: str) -> Evaluation | None:
    """Our fault, not the submitter's: queue again, or give up after MAX_INFRA_FAILURES (unjudged)."""
    with transaction.atomic():
        row = _mine(claim).select_for_update().first()
        if row is None:
            return None
        _requeue_or_fail(row, reason, claim.sample)
    return row


def evaluation_fail_unusable(claim: Claim, reason: str) -> Evaluation | None:
    """The evaluator refused the input (the task left the suite, a path it no longer offers):
    retrying cannot help, so the evaluation ends unjudged at once, saying why."""
    with transaction.atomic():
        row = _mine(claim).select_for_update().first()
        if row is None:
            return None
        _end_unjudged(row, REFUSED_PREFIX + reason, claim.sample)
    return row


def _requeue_or_fail(row: Evaluation, reason: str, sample: Sample) -> None:
    row.infra_failures += 1
    if row.infra_failures >= MAX_INFRA_FAILURES:
        _end_unjudged(row, reason, sample)
        return
    row.error = reason[:2000]
    row.lease_until = None
    row.stage = ""
    row.status = EvalStatus.QUEUED
    row.enqueued_at = timezone.now()
    row.save()
    transaction.on_commit(lambda: evaluation_send(row))


def _end_unjudged(row: Evaluation, reason: str, sample: Sample) -> None:
    row.error = reason[:2000]
    row.lease_until = None
    row.stage = ""
    row.status = EvalStatus.FAILED
    row.verdict = Verdict.SYSTEM_ERROR
    row.compiled = row.passed = None
    row.finished_at = timezone.now()
    row.save()
    aggregates.record_ended(Ended(row.pk, sample, judged=False, verdict=Verdict.SYSTEM_ERROR))


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
    expired = Evaluation.objects.filter(lease_expired(now)).values_list("pk", flat=True)
    for pk in list(expired):
        with transaction.atomic():
            row = (Evaluation.objects.select_for_update(skip_locked=True, of=("self",)).select_related("submission")
                   .filter(lease_expired(now), pk=pk).first())
            if row is None:
                continue
            _requeue_or_fail(row, f"worker {row.worker or '?'} stopped renewing its lease (attempt {row.attempt})",
                             Sample.of(row))
            count += 1
    return count


def queued_count() -> int:
    return Evaluation.objects.filter(status=EvalStatus.QUEUED).count()

