"""Submitting through the API: a run's ownership and sample range, the per-user concurrency cap,
and batches in which one bad item never loses the good ones.

Rows are validated by submissions.services.submission_validate and stored by
submission_create_many (idempotent on (run, task, sample_index), queued after commit); nothing is
evaluated in the web process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from accounts.services import NotYours
from api.errors import TooManyPending
from api.selectors import pending_count
from submissions.errors import SubmissionRejected
from submissions.models import Path_, Run
from submissions.services import (
    Created,
    Draft,
    submission_create_many,
    submission_validate,
    submissions_existing,
)

_LOCK_CLASS = 0x616B67  # "akg": namespace of the per-user advisory locks


@dataclass
class ItemResult:
    index: int
    status_code: int
    created: Created | None = None
    error: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.created is not None


def max_pending() -> int:
    return int(settings.AKGEN_MAX_PENDING_PER_USER)


def _lock_user(user) -> None:
    """Serialise one user's submissions so the concurrency cap cannot be overshot by a race.

    PostgreSQL: a transaction-scoped advisory lock per user. SQLite: its IMMEDIATE transactions
    already serialise writers.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, user.pk])


class _Runs:
    """The caller's runs, looked up once per request."""

    def __init__(self, user) -> None:
        self.user = user
        self._cache: dict[int, Run | None] = {}

    def get(self, run_id: int) -> Run:
        if run_id not in self._cache:
            self._cache[run_id] = Run.objects.select_related("model").filter(pk=run_id, model__owner=self.user).first()
        run = self._cache[run_id]
        if run is None:
            raise NotYours("unknown_run", f"You have no run with id {run_id}.", {"run": "not one of your runs"})
        return run


def _draft(user, data: dict, runs: _Runs, tasks: dict) -> Draft:
    """Validate one item: the run is the caller's, the sample index in its range, the sources sane."""
    run_id = data.get("run")
    run = runs.get(run_id) if run_id is not None else None
    sample_index = data.get("sample_index")
    if run is not None and sample_index is not None and sample_index >= run.samples_per_task:
        raise SubmissionRejected(
            "invalid_sample", f"Run {run.pk} has {run.samples_per_task} samples per task; "
            f"sample_index must be 0..{run.samples_per_task - 1}.",
            {"sample_index": f"0..{run.samples_per_task - 1}"},
        )
    return submission_validate(
        task_slug=data["task"],
        path=data.get("path") or (run.path if run is not None else Path_.DEVICE_ONLY),
        kernel=data["kernel"],
        host=data.get("host"),
        author=user,
        run=run,
        sample_index=sample_index,
        toolchain=run.toolchain if run is not None else "cpu-sim",
        visibility=data.get("visibility") or "public",
        tasks=tasks,
    )


def _too_many(pending: int, cap: int) -> TooManyPending:
    return TooManyPending(f"You have {pending} evaluations queued or running; the limit is {cap}. "
                          "Wait for some to finish.", pending=pending, cap=cap)


def api_submit(*, user, data: dict) -> Created:
    """One submission for `user`; raises SubmissionRejected (400/404/413) or TooManyPending (429)."""
    with transaction.atomic():
        _lock_user(user)
        draft = _draft(user, data, _Runs(user), {})
        existing = submissions_existing([draft]).get(draft.key) if draft.key else None
        if existing is not None:  # repeating an accepted sample is always fine
            return existing
        pending, cap = pending_count(user), max_pending()
        if pending >= cap:
            raise _too_many(pending, cap)
        return submission_create_many([draft])[0]


def api_submit_batch(*, user, items: list[tuple[int, dict | None, dict | None]]) -> list[ItemResult]:
    """Many submissions; each item is accepted or refused on its own.

    `items` holds (index, validated data, None) or (index, None, error body) for items that failed
    input validation. Accepted items are inserted together (submission_create_many), committed
    together and queued after the commit.
    """
    results: dict[int, ItemResult] = {}
    runs, tasks = _Runs(user), {}
    with transaction.atomic():
        _lock_user(user)
        drafts: list[tuple[int, Draft]] = []
        for index, data, error in items:
            if data is None:
                results[index] = ItemResult(index, 400, error=error)
                continue
            try:
                drafts.append((index, _draft(user, data, runs, tasks)))
            except SubmissionRejected as exc:
                results[index] = ItemResult(index, exc.status_code, error={
                    "code": exc.code, "message": exc.message, "fields": exc.fields})
        existing = submissions_existing([d for _, d in drafts])
        pending, cap = pending_count(user), max_pending()
        accepted: list[tuple[int, Draft]] = []
        keys_taken: set = set()
        for index, draft in drafts:
            # Repeats (stored, or earlier in this batch) cost nothing; new work waits for the queue.
            if draft.key is not None and (draft.key in existing or draft.key in keys_taken):
                accepted.append((index, draft))
                continue
            if pending >= cap:
                exc = _too_many(pending, cap)
                results[index] = ItemResult(index, 429, error={
                    "code": "too_many_pending", "message": str(exc.detail),
                    "fields": {"pending": str(exc.pending), "cap": str(exc.cap)}})
                continue
            pending += 1
            if draft.key is not None:
                keys_taken.add(draft.key)
            accepted.append((index, draft))
        for (index, _), created in zip(accepted, submission_create_many([d for _, d in accepted]), strict=True):
            results[index] = ItemResult(index, 201 if created.created else 200, created=created)
    return [results[index] for index, _, _ in items]
