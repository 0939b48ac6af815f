"""Write-side operations on submissions and their evaluations.

The database is the source of truth: rows are committed before any message is sent, workers
claim rows with an attempt counter and a lease, and finish them only while their attempt is
current. A lost message or a dead worker is repaired by submissions.reconcile.
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from submissions.errors import SourceTooLarge, SubmissionRejected, UnknownTask
from submissions.models import EvalStatus, Evaluation, Path_, Run, Submission, Visibility
from tasks.models import Task

logger = logging.getLogger(__name__)

MAX_SOURCE_BYTES = 64 * 1024
MAX_INFRA_FAILURES = 3
QUEUES = {"cpu-sim": "eval.cpu-sim", "cann": "eval.cann-910b"}


def source_sha256(kernel: str, host: str | None) -> str:
    digest = hashlib.sha256()
    digest.update(kernel.encode("utf-8"))
    digest.update(b"\0host\0")
    digest.update((host or "").encode("utf-8"))
    return digest.hexdigest()


def _check_source(field: str, text: str | None, *, required: bool) -> None:
    if text is None or text == "":
        if required:
            raise SubmissionRejected("missing_source", f"'{field}' is required.", {field: "required"})
        return
    if not isinstance(text, str):
        raise SubmissionRejected("invalid_source", f"'{field}' must be a string.", {field: "not a string"})
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > MAX_SOURCE_BYTES:
        raise SourceTooLarge(
            "source_too_large",
            f"'{field}' is {size} bytes; the limit is {MAX_SOURCE_BYTES} bytes.",
            {field: f"at most {MAX_SOURCE_BYTES} bytes"},
        )
    if "\x00" in text:
        raise SubmissionRejected("invalid_source", f"'{field}' contains a NUL byte.", {field: "NUL byte"})
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SubmissionRejected("invalid_source", f"'{field}' is not valid UTF-8.", {field: "not UTF-8"}) from exc


def lease() -> timedelta:
    """How long a claim holds without renewal; a worker that stops renewing loses it."""
    return timedelta(seconds=settings.AKGEN_EVAL_LEASE_S)


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
    _check_source("kernel", kernel, required=True)
    _check_source("host", host, required=path == Path_.HOST_DEVICE)
    if path == Path_.DEVICE_ONLY:
        host = None
    if (run is None) != (sample_index is None):
        raise SubmissionRejected("invalid_sample", "'run' and 'sample_index' go together.",
                                 {"sample_index": "needs run" if run is None else "required with run"})
    return Draft(task=task, path=path, kernel=kernel, host=host, author=author, run=run,
                 sample_index=sample_index, toolchain=toolchain, visibility=visibility)


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
        run=draft.run, sample_index=draft.sample_index, visibility=draft.visibility,
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
    return "Ascend910B2"


def evaluation_send(evaluation: Evaluation) -> None:
    """Hand an evaluation id to its toolchain's queue. Failure to send is repaired by the reconciler."""
    from submissions.actors import actor_for

    try:
        actor_for(evaluation.toolchain).send(evaluation.pk)
    except Exception:
        logger.warning("could not send evaluation %s; the reconciler will retry", evaluation.pk, exc_info=True)


# --- worker side ---------------------------------------------------------------------------


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
    from leaderboard.metrics import failure_category
    from leaderboard.services import leaderboard_record
    from tasks.services import RANKED_TOOLCHAIN, task_stats_record

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
    import threading

    from django.db import connection

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

