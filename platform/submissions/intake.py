"""Taking submissions in: what the web pages and the API run (workers run workers.pipeline).

A submission is validated (size, UTF-8, a path the task offers, a run the caller owns and a
sample index in its range), saved with its Evaluation in one transaction, and handed to
submissions.queueing only once that commits; it is idempotent on (run, task, sample_index).
The submissions of one user are serialised so the cap on pending evaluations cannot be
overshot, and in a batch one bad item never loses the good ones. Nothing is evaluated here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts import ratelimit, tiers
from bench_runner.contracts import DEFAULT_SOC, SourceRejected, check_source
from submissions.errors import (
    NotYours,
    OutOfBudget,
    SourceTooLarge,
    SubmissionRejected,
    SubmittingTooFast,
    TooManyPending,
    UnknownTask,
)
from submissions.models import Evaluation, Path_, Run, Submission, Visibility
from submissions.queueing import QUEUES, evaluation_send
from submissions.selectors import pending_count, worker_seconds_by_author
from tasks.models import Task
from tasks.selectors import source_limit


def source_sha256(kernel: str, host: str | None) -> str:
    digest = hashlib.sha256()
    digest.update(kernel.encode("utf-8"))
    digest.update(b"\0host\0")
    digest.update((host or "").encode("utf-8"))
    return digest.hexdigest()


#: What the field-level error says for each of the contract's rejection codes.
_FIELD_HINT = {"missing_source": "required", "invalid_source": "not valid text",
               "source_too_large": "at most {limit} bytes"}


#: The largest reasoning text stored with a sample (a 32k-token think block is ~130 KB).
MAX_REASONING_BYTES = 256 * 1024


def _check_reasoning(text: str) -> None:
    if "\x00" in text:
        raise SubmissionRejected("invalid_reasoning", "The reasoning contains a NUL character.",
                                 {"reasoning": "not valid text"})
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise SubmissionRejected("invalid_reasoning", "The reasoning is not valid UTF-8 text.",
                                 {"reasoning": "not valid text"}) from None
    if size > MAX_REASONING_BYTES:
        raise SourceTooLarge("reasoning_too_large", f"The reasoning is {size} bytes; at most {MAX_REASONING_BYTES} "
                             "are stored.", {"reasoning": f"at most {MAX_REASONING_BYTES} bytes"})


def _check_source(field: str, text: str | None, *, required: bool, limit: int) -> None:
    """The evaluator's own rule (bench_runner.contracts.check_source), as a 400/413 for the API."""
    try:
        check_source(field, text, required=required, limit=limit)
    except SourceRejected as exc:
        error = SourceTooLarge if exc.code == "source_too_large" else SubmissionRejected
        raise error(exc.code, str(exc)[0].upper() + str(exc)[1:] + ".", {field: _FIELD_HINT[exc.code].format(limit=limit)}) from None


@dataclass
class Created:
    submission: Submission
    evaluation: Evaluation
    created: bool


@dataclass(frozen=True)
class Draft:
    """A validated submission not yet saved: what submission_create and its batch form store."""

    task: Task
    path: str
    kernel: str
    host: str | None
    author: Any
    run: Run | None
    sample_index: int | None
    toolchain: str
    visibility: str
    reasoning: str = ""

    @property
    def key(self) -> tuple[int, int, int] | None:
        """The idempotency key (run, task, sample_index), or None for a one-off submission."""
        if self.run is None or self.sample_index is None:
            return None
        return (self.run.pk, self.task.pk, self.sample_index)


def _task_for(task_slug: str, tasks: dict[str, Task | None] | None) -> Task:
    if tasks is not None and task_slug in tasks:
        task = tasks[task_slug]
    else:
        task = Task.objects.select_related("current_version").filter(slug=task_slug, retired=False).first()
        if tasks is not None:
            tasks[task_slug] = task
    if task is None or task.current_version is None:
        raise UnknownTask("unknown_task", f"No task '{task_slug}'.", {"task": "unknown task"})
    return task


def submission_validate(
    *,
    task_slug: str,
    path: str,
    kernel: str,
    host: str | None = None,
    author=None,
    run: Run | None = None,
    sample_index: int | None = None,
    toolchain: str = "cpu-sim",
    visibility: str = Visibility.PUBLIC,
    tasks: dict[str, Task | None] | None = None,
    reasoning: str | None = None,
) -> Draft:
    """Check one submission without writing anything; raises SubmissionRejected with the field.

    `tasks` caches task lookups across the items of a batch.
    """
    task = _task_for(task_slug, tasks)
    if path not in Path_.values:
        raise SubmissionRejected("invalid_path", f"'path' must be one of {', '.join(Path_.values)}.",
                                 {"path": "invalid choice"})
    if path not in (task.paths or Path_.values):
        raise SubmissionRejected("path_not_offered", f"Task '{task.slug}' does not offer the {path} path.",
                                 {"path": f"offered: {', '.join(task.paths)}"})
    if toolchain not in QUEUES:
        raise SubmissionRejected("invalid_toolchain", f"Unknown toolchain '{toolchain}'.",
                                 {"toolchain": f"one of {', '.join(QUEUES)}"})
    limit = source_limit(task)
    _check_source("kernel", kernel, required=True, limit=limit)
    _check_source("host", host, required=path == Path_.HOST_DEVICE, limit=limit)
    reasoning = reasoning or ""
    _check_reasoning(reasoning)
    if path == Path_.DEVICE_ONLY:
        host = None
    if (run is None) != (sample_index is None):
        raise SubmissionRejected("invalid_sample", "'run' and 'sample_index' go together.",
                                 {"sample_index": "needs run" if run is None else "required with run"})
    return Draft(task=task, path=path, kernel=kernel, host=host, author=author, run=run,
                 sample_index=sample_index, toolchain=toolchain, visibility=visibility, reasoning=reasoning)


def submission_create(**fields: Any) -> Created:
    """Validate and save a submission with its evaluation, then queue it after commit.

    Takes submission_validate's keyword arguments. Idempotent on (run, task, sample_index): a
    repeat returns the first submission unchanged.
    """
    draft = submission_validate(**fields)
    if draft.run is not None:
        existing = _existing_sample(draft.run, draft.task, draft.sample_index)
        if existing is not None:
            return existing
    try:
        with transaction.atomic():
            submission, evaluation = _new_rows(draft, timezone.now())
            submission.save(force_insert=True)
            evaluation.submission = submission
            evaluation.save(force_insert=True)
            transaction.on_commit(lambda: evaluation_send(evaluation))
    except IntegrityError:
        # A concurrent request for the same (run, task, sample) won the race.
        existing = _existing_sample(draft.run, draft.task, draft.sample_index) if draft.run is not None else None
        if existing is None:
            raise
        return existing
    return Created(submission, evaluation, True)


def _new_rows(draft: Draft, now) -> tuple[Submission, Evaluation]:
    submission = Submission(
        task=draft.task, task_version=draft.task.current_version, path=draft.path, kernel_source=draft.kernel,
        host_source=draft.host, sha256=source_sha256(draft.kernel, draft.host), author=draft.author,
        run=draft.run, sample_index=draft.sample_index, visibility=draft.visibility, reasoning=draft.reasoning,
    )
    evaluation = Evaluation(toolchain=draft.toolchain, soc=_default_soc(draft.toolchain), enqueued_at=now)
    return submission, evaluation


def submissions_existing(drafts: list[Draft]) -> dict[tuple[int, int, int], Created]:
    """The already-stored samples among `drafts`' idempotency keys, in one query."""
    keys = {d.key for d in drafts if d.key is not None}
    if not keys:
        return {}
    rows = (Submission.objects.filter(run_id__in={k[0] for k in keys}, task_id__in={k[1] for k in keys},
                                      sample_index__in={k[2] for k in keys})
            .prefetch_related("evaluations"))
    found: dict[tuple[int, int, int], Created] = {}
    for submission in rows:
        key = (submission.run_id, submission.task_id, submission.sample_index)
        if key in keys:
            first = min(submission.evaluations.all(), key=lambda e: e.pk, default=None)
            found[key] = Created(submission, first, False)
    return found


def submission_create_many(drafts: list[Draft]) -> list[Created]:
    """Save many validated drafts with two multi-row INSERTs; results are in the drafts' order.

    Why: a model run submits hundreds of samples at once, and one round trip per row caps the
    batch API well below what the database can take. Samples already stored (or repeated within
    `drafts`) come back with created=False. Call inside the caller's transaction; messages are
    sent after it commits.
    """
    existing = submissions_existing(drafts)
    now = timezone.now()
    fresh: list[tuple[int, Submission, Evaluation]] = []
    first_of: dict[tuple[int, int, int], int] = {}
    for i, draft in enumerate(drafts):
        if draft.key is not None and (draft.key in existing or draft.key in first_of):
            continue
        if draft.key is not None:
            first_of[draft.key] = i
        submission, evaluation = _new_rows(draft, now)
        fresh.append((i, submission, evaluation))
    with transaction.atomic(savepoint=False):  # all or nothing, without a savepoint round trip
        Submission.objects.bulk_create([sub for _, sub, _ in fresh])
        for _, sub, ev in fresh:
            ev.submission = sub
        Evaluation.objects.bulk_create([ev for _, _, ev in fresh])
        evaluations = [ev for _, _, ev in fresh]
        transaction.on_commit(lambda: [evaluation_send(ev) for ev in evaluations])
    by_index = {i: Created(sub, ev, True) for i, sub, ev in fresh}
    out = []
    for i, draft in enumerate(drafts):
        if i in by_index:
            out.append(by_index[i])
        elif draft.key in existing:
            out.append(existing[draft.key])
        else:  # a repeat within this batch: the first occurrence's rows
            first = by_index[first_of[draft.key]]
            out.append(Created(first.submission, first.evaluation, False))
    return out


def _existing_sample(run: Run, task: Task, sample_index: int | None) -> Created | None:
    submission = Submission.objects.filter(run=run, task=task, sample_index=sample_index).first()
    if submission is None:
        return None
    return Created(submission, submission.evaluations.order_by("id").first(), False)


def _default_soc(toolchain: str) -> str:
    return DEFAULT_SOC


# --- the per-user cap and run ownership (pages and API alike) --------------------------------


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


def max_pending(user) -> int:
    """How many evaluations ``user`` may have queued or running at once (accounts.tiers)."""
    return tiers.allowance(user).max_pending


@dataclass(frozen=True)
class Budget:
    """An account's worker time in its budget window."""

    used_s: float
    budget_s: float
    window_s: int
    #: Seconds until the oldest charged evaluation leaves the window.
    frees_in_s: int

    @property
    def spent(self) -> bool:
        return self.used_s >= self.budget_s


def budget_of(user, allowance: tiers.Allowance | None = None) -> Budget:
    """How much of its worker-time budget ``user`` has used (what the limits cards show, too)."""
    allowance = allowance or tiers.allowance(user)
    now = timezone.now()
    since = now - timedelta(seconds=allowance.budget_window_s)
    used = worker_seconds_by_author(since=since, authors=[user.pk]).get(user.pk, 0.0)
    oldest = (Evaluation.objects.filter(submission__author=user, started_at__gte=since)
              .order_by("started_at").values_list("started_at", flat=True).first())
    frees = allowance.budget_window_s - int((now - oldest).total_seconds()) if oldest else 0
    return Budget(used, allowance.eval_budget_s, allowance.budget_window_s, max(1, frees))


def _admit(user) -> tuple[int, int]:
    """Before new work is accepted: raises OutOfBudget; returns (pending, cap) for the pending cap."""
    allowance = tiers.allowance(user)
    budget = budget_of(user, allowance)
    if budget.spent:
        raise OutOfBudget(used_s=budget.used_s, budget_s=budget.budget_s, window_s=budget.window_s,
                          retry_after_s=budget.frees_in_s)
    return pending_count(user), allowance.max_pending


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
        reasoning=data.get("reasoning"),
    )


def _too_many(pending: int, cap: int) -> TooManyPending:
    return TooManyPending(f"You have {pending} evaluations queued or running; the limit is {cap}. "
                          "Wait for some to finish.", pending=pending, cap=cap)


def api_submit(*, user, data: dict) -> Created:
    """One submission for `user`; raises SubmissionRejected (400/404/413), TooManyPending or OutOfBudget (429)."""
    with transaction.atomic():
        _lock_user(user)
        draft = _draft(user, data, _Runs(user), {})
        existing = submissions_existing([draft]).get(draft.key) if draft.key else None
        if existing is not None:  # repeating an accepted sample is always fine
            return existing
        pending, cap = _admit(user)
        if pending >= cap:
            raise _too_many(pending, cap)
        return submission_create_many([draft])[0]


def person_submit(*, user, data: dict, visibility: str | None = None) -> Created:
    """A person submitting from a page (the editor, the workspace's fix editor): the per-minute
    allowance (shared with the API's per-user limit) first, then every rule of api_submit.

    Every path that creates an evaluation for a person goes through here or the API, so a limit
    added to one cannot be bypassed through another. Raises SubmittingTooFast (429),
    TooManyPending (429), OutOfBudget (429) or SubmissionRejected.
    """
    decision = ratelimit.hit(ratelimit.limits_for("submit", user_id=user.pk, token_id=None))
    if not decision.allowed:
        raise SubmittingTooFast(limit=decision.limit, retry_after_s=decision.retry_after)
    return api_submit(user=user, data=data if visibility is None else {**data, "visibility": visibility})


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
        try:
            pending, cap, refusal = *_admit(user), None
        except OutOfBudget as exc:
            pending, cap, refusal = 0, 0, exc
        accepted: list[tuple[int, Draft]] = []
        keys_taken: set = set()
        for index, draft in drafts:
            # Repeats (stored, or earlier in this batch) cost nothing; new work waits for the queue.
            if draft.key is not None and (draft.key in existing or draft.key in keys_taken):
                accepted.append((index, draft))
                continue
            if refusal is not None or pending >= cap:
                exc = refusal or _too_many(pending, cap)
                results[index] = ItemResult(index, exc.status_code, error={
                    "code": exc.code, "message": exc.message, "fields": exc.fields})
                continue
            pending += 1
            if draft.key is not None:
                keys_taken.add(draft.key)
            accepted.append((index, draft))
        for (index, _), created in zip(accepted, submission_create_many([d for _, d in accepted]), strict=True):
            results[index] = ItemResult(index, 201 if created.created else 200, created=created)
    return [results[index] for index, _, _ in items]
