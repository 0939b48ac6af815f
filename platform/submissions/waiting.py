"""How long evaluations wait, and when a wait stops being normal.

One rule (``AKGEN_EVAL_OVERDUE_S``) serves /healthz and the submission page, so the probe and
the page a user reads never disagree about whether the judge is keeping up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, Q
from django.utils import timezone

from submissions.models import PENDING_STATUSES, EvalStatus, Evaluation


def overdue_after() -> timedelta:
    return timedelta(seconds=settings.AKGEN_EVAL_OVERDUE_S)


def waited(evaluation: Evaluation, now: datetime | None = None) -> timedelta | None:
    """How long an unfinished evaluation has waited since it was (last) queued; None when finished."""
    if evaluation.status not in PENDING_STATUSES:
        return None
    since = evaluation.enqueued_at or evaluation.created_at
    return (now or timezone.now()) - since if since else None


def lease_expired(now: datetime) -> Q:
    """The rows whose worker is lost: running, with a lease that ran out before ``now``.

    The one rule for it: the worker's claim (such a row may be taken again), the reconciler
    (it requeues them), /healthz (``expired_leases``) and, row by row, :func:`worker_lost`.
    """
    return Q(status=EvalStatus.RUNNING, lease_until__lt=now)


def worker_lost(evaluation: Evaluation, now: datetime | None = None) -> bool:
    """:func:`lease_expired` for one loaded row (the submission page says so while it waits)."""
    return (evaluation.status == EvalStatus.RUNNING and evaluation.lease_until is not None
            and evaluation.lease_until < (now or timezone.now()))


def is_overdue(evaluation: Evaluation, now: datetime | None = None) -> bool:
    wait = waited(evaluation, now)
    return wait is not None and wait > overdue_after()


@dataclass(frozen=True, slots=True)
class QueueHealth:
    queued: int
    running: int
    expired_leases: int
    overdue: int
    oldest_wait_s: float | None

    @property
    def ok(self) -> bool:
        return self.expired_leases == 0 and self.overdue == 0

    def as_dict(self) -> dict:
        return {"ok": self.ok, "queued": self.queued, "running": self.running,
                "expired_leases": self.expired_leases, "overdue": self.overdue,
                "overdue_after_s": overdue_after().total_seconds(), "oldest_wait_s": self.oldest_wait_s}


def queue_health() -> QueueHealth:
    """What /healthz reports about the evaluations themselves: one aggregate over pending rows."""
    now = timezone.now()
    cutoff = now - overdue_after()
    pending = Evaluation.objects.filter(status__in=PENDING_STATUSES)
    row = pending.aggregate(
        queued=_count(Q(status=EvalStatus.QUEUED)), running=_count(Q(status=EvalStatus.RUNNING)),
        expired=_count(lease_expired(now)),
        overdue=_count(Q(enqueued_at__lt=cutoff) | Q(enqueued_at__isnull=True, created_at__lt=cutoff)),
        oldest=Min("enqueued_at"),
    )
    oldest = round((now - row["oldest"]).total_seconds(), 1) if row["oldest"] else None
    return QueueHealth(row["queued"], row["running"], row["expired"], row["overdue"], oldest)


def _count(condition: Q) -> Count:
    return Count("pk", filter=condition)
