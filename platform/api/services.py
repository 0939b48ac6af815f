"""Submitting through the API: a run's ownership and sample range, the per-user concurrency cap,
and batches in which one bad item never loses the good ones.

Rows are created by submissions.services.submission_create (validated, idempotent on
(run, task, sample_index), queued after commit); nothing is evaluated in the web process.
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
from submissions.models import Path_, Run, Submission
from submissions.services import Created, submission_create

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


def _existing(run: Run | None, task_slug: str, sample_index: int | None) -> Created | None:
    if run is None or sample_index is None:
        return None
    submission = Submission.objects.filter(run=run, task__slug=task_slug, sample_index=sample_index).first()
    if submission is None:
        return None
    return Created(submission, submission.evaluations.order_by("id").first(), False)


def _submit(user, data: dict, runs: _Runs, state: dict) -> Created:
    run_id = data.get("run")
    run = runs.get(run_id) if run_id is not None else None
    sample_index = data.get("sample_index")
    if run is not None and sample_index is not None and sample_index >= run.samples_per_task:
        raise SubmissionRejected(
            "invalid_sample", f"Run {run.pk} has {run.samples_per_task} samples per task; "
            f"sample_index must be 0..{run.samples_per_task - 1}.",
            {"sample_index": f"0..{run.samples_per_task - 1}"},
        )
    if state["pending"] >= state["cap"]:
        # Repeating an accepted sample is always fine; new work waits for the queue to drain.
        existing = _existing(run, data["task"], sample_index)
        if existing is not None:
            return existing
        raise TooManyPending(
            f"You have {state['pending']} evaluations queued or running; the limit is {state['cap']}. "
            "Wait for some to finish.", pending=state["pending"], cap=state["cap"],
        )
    created = submission_create(
        task_slug=data["task"],
        path=data.get("path") or (run.path if run is not None else Path_.DEVICE_ONLY),
        kernel=data["kernel"],
        host=data.get("host"),
        author=user,
        run=run,
        sample_index=sample_index,
        toolchain=run.toolchain if run is not None else "cpu-sim",
        visibility=data.get("visibility") or "public",
    )
    if created.created:
        state["pending"] += 1
    return created


def api_submit(*, user, data: dict) -> Created:
    """One submission for `user`; raises SubmissionRejected (400/404/413) or TooManyPending (429)."""
    with transaction.atomic():
        _lock_user(user)
        state = {"pending": pending_count(user), "cap": max_pending()}
        return _submit(user, data, _Runs(user), state)


def api_submit_batch(*, user, items: list[tuple[int, dict | None, dict | None]]) -> list[ItemResult]:
    """Many submissions; each item is accepted or refused on its own.

    `items` holds (index, validated data, None) or (index, None, error body) for items that failed
    input validation. Accepted items are committed together and queued after the commit.
    """
    results: list[ItemResult] = []
    runs = _Runs(user)
    with transaction.atomic():
        _lock_user(user)
        state = {"pending": pending_count(user), "cap": max_pending()}
        for index, data, error in items:
            if data is None:
                results.append(ItemResult(index, 400, error=error))
                continue
            try:
                created = _submit(user, data, runs, state)
            except SubmissionRejected as exc:
                results.append(ItemResult(index, exc.status_code, error={
                    "code": exc.code, "message": exc.message, "fields": exc.fields}))
            except TooManyPending as exc:
                results.append(ItemResult(index, 429, error={
                    "code": "too_many_pending", "message": str(exc.detail),
                    "fields": {"pending": str(exc.pending), "cap": str(exc.cap)}}))
            else:
                results.append(ItemResult(index, 201 if created.created else 200, created=created))
    return results
