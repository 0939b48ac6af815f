"""Read-side queries for submissions and their evaluations.

Visibility rule (pages and API alike): a private submission is visible to its author and to
staff only; everybody else gets a 404, as if it did not exist.

Shared file: the pages' queries are below; add yours in their own section.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.utils import timezone

from submissions.models import (
    PENDING_STATUSES,
    EvalStatus,
    Evaluation,
    LanguageModel,
    Run,
    Submission,
    Visibility,
)

# --- pages (issue 5) ---------------------------------------------------------------------------

#: ?verdict= values of submission lists beyond the verdicts themselves.
VERDICT_GROUPS = {
    "pending": Q(ev_status__in=PENDING_STATUSES),
    "failed": Q(ev_status__in=[EvalStatus.DONE, EvalStatus.FAILED]) & ~Q(ev_verdict="passed"),
}

LIST_SORTS = {
    "new": (F("created_at").desc(), F("pk").desc()),
    "old": (F("created_at").asc(), F("pk").asc()),
    "speedup": (F("ev_speedup").desc(nulls_last=True), F("created_at").asc()),
}


def visibility_q(user, *, via: str = "") -> Q | None:
    """THE visibility rule, as a filter on submissions (``via`` prefixes the lookups, e.g.
    "submission__" on evaluations): public ones, the user's own, everything for staff (None).

    ``user=None`` asks what *everyone* may see: what may go to people other than its author and
    staff — the expert workspace's queues, releases, exports. Every selector that hands a
    submission to someone applies this, so a private kernel never leaks through a side door.
    """
    if user is not None and user.is_authenticated and user.is_staff:
        return None
    public = Q(**{f"{via}visibility": Visibility.PUBLIC})
    if user is not None and user.is_authenticated:
        return public | Q(**{f"{via}author": user})
    return public


def submissions_visible_to(user) -> QuerySet[Submission]:
    """Submissions ``user`` may open (visibility_q)."""
    rule = visibility_q(user)
    return Submission.objects.all() if rule is None else Submission.objects.filter(rule)


def is_visible_to(submission: Submission, user) -> bool:
    return submissions_visible_to(user).filter(pk=submission.pk).exists()


# --- what a viewer is shown of a submission it may open (issue #30) ----------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """What of a submission one viewer is shown: the page, its polled partial and the API all
    read this one answer, so the API never hands a reader a field the page keeps from them.

    Whether the viewer may open the submission at all is ``visibility_q`` (a 404 otherwise);
    whoever may open it reads its sources, its judged result and the reasoning sent with it (the
    reasoning is training data: releases carry a shared sample's reasoning to their readers, so
    it is exactly as private as its kernel). What is never the submitter's and never public is
    the judging's operational detail — an infrastructure error's text and the worker's host
    name — which, as on /healthz, only staff read; others get the evaluator's refusal only.
    """

    reasoning: bool
    operations: bool


def shown_to(user, submission: Submission) -> Shown:
    """What ``user`` is shown of ``submission``, which the caller found through visibility_q."""
    staff = bool(user is not None and user.is_authenticated and user.is_staff)
    return Shown(reasoning=True, operations=staff)


def _primary_evaluation():
    return Evaluation.objects.filter(submission=OuterRef("pk")).order_by("pk")


def with_primary_evaluation(qs: QuerySet[Submission]) -> QuerySet[Submission]:
    """Annotate each submission with its first evaluation's status, stage, verdict, speedup, cycles."""
    first = _primary_evaluation()
    return qs.annotate(
        ev_id=Subquery(first.values("pk")[:1]),
        ev_status=Subquery(first.values("status")[:1]),
        ev_stage=Subquery(first.values("stage")[:1]),
        ev_verdict=Subquery(first.values("verdict")[:1]),
        ev_speedup=Subquery(first.values("speedup")[:1]),
        ev_cycles=Subquery(first.values("cycles")[:1]),
        ev_toolchain=Subquery(first.values("toolchain")[:1]),
    )


def submission_list(
    *,
    user,
    task=None,
    author=None,
    verdict: str | None = None,
    sort: str = "new",
) -> QuerySet[Submission]:
    """Visible submissions for a list page, newest first, each row's evaluation annotated."""
    qs = submissions_visible_to(user)
    if task is not None:
        qs = qs.filter(task=task)
    if author is not None:
        qs = qs.filter(author=author)
    qs = with_primary_evaluation(
        qs.select_related("task", "task_version", "author", "run__model")
        .defer("kernel_source", "host_source", "reasoning", "task_version__spec", "task_version__api_desc",
               "task_version__template_kernel", "task_version__template_host",
               "task_version__expert_kernel", "task_version__expert_host")
    )
    if verdict in VERDICT_GROUPS:
        qs = qs.filter(VERDICT_GROUPS[verdict])
    elif verdict:
        qs = qs.filter(ev_verdict=verdict)
    return qs.order_by(*LIST_SORTS.get(sort, LIST_SORTS["new"]))


def submission_get_visible(*, pk: int, user) -> Submission | None:
    """The submission for its page, with what the page shows about it; None if not visible."""
    return (
        submissions_visible_to(user)
        .select_related("task", "task_version", "author", "run__model")
        .filter(pk=pk)
        .first()
    )


def submission_primary_evaluation(submission: Submission) -> Evaluation | None:
    return submission.evaluations.order_by("pk").first()


def queue_position(evaluation: Evaluation) -> int | None:
    """1 for the next evaluation a worker of this toolchain will take; None unless queued."""
    if evaluation.status != EvalStatus.QUEUED:
        return None
    ahead = Evaluation.objects.filter(status=EvalStatus.QUEUED, toolchain=evaluation.toolchain)
    if evaluation.enqueued_at is not None:
        ahead = ahead.filter(Q(enqueued_at__lt=evaluation.enqueued_at)
                             | Q(enqueued_at=evaluation.enqueued_at, pk__lt=evaluation.pk))
    else:
        ahead = ahead.filter(pk__lt=evaluation.pk)
    return ahead.count() + 1


def user_has_passed(*, user, task) -> bool:
    """Whether ``user`` has a passed submission on ``task`` (any version), which unlocks the expert kernel."""
    if user is None or not user.is_authenticated:
        return False
    return Evaluation.objects.filter(submission__task=task, submission__author=user, passed=True).exists()


def expert_visible_to(*, user, task) -> bool:
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    return user_has_passed(user=user, task=task)


def submission_relatives(submission: Submission, *, user, limit: int = 20) -> QuerySet[Submission]:
    """Other visible submissions of the same person (or the same model run) on the same task."""
    if submission.author_id is not None:
        same = Q(author_id=submission.author_id)
    elif submission.run_id is not None:
        same = Q(run_id=submission.run_id)
    else:
        return Submission.objects.none()
    qs = (
        submissions_visible_to(user)
        .filter(same, task_id=submission.task_id)
        .exclude(pk=submission.pk)
        .select_related("author", "run__model")
        .defer("kernel_source", "host_source", "reasoning")
        .order_by("-created_at", "-pk")
    )
    return with_primary_evaluation(qs)[:limit]


# --- an owner's submissions, models and runs (the API and the profile page) --------------------



def submission_get_for(user, pk: int) -> Submission | None:
    """The submission with its evaluations if `user` may see it, else None (answered as 404).

    Private submissions (drafts) are visible to their author and staff only.
    """
    return (submissions_visible_to(user).select_related("task", "task_version", "run")
            .prefetch_related("evaluations").filter(pk=pk).first())


def submissions_of(user) -> QuerySet[Submission]:
    return Submission.objects.filter(author=user).select_related("task").prefetch_related("evaluations")


def pending_count(user) -> int:
    """Evaluations of this user's submissions that are queued or running (the concurrency cap)."""
    return Evaluation.objects.filter(submission__author=user, status__in=PENDING_STATUSES).count()


def worker_seconds_by_author(*, since: datetime, authors: list | None = None) -> dict[int | None, float]:
    """Seconds of worker time (wall clock, compile + run) each author's evaluations took since ``since``.

    An attempt counts from its start: a finished one its whole duration, a running one until
    now (a compile bomb is charged while it burns). The fair scheduler orders by this and the
    per-account budget (accounts.tiers) caps it. ``authors`` limits the answer to those ids.
    """
    base = Evaluation.objects.filter(started_at__gte=since)
    if authors is not None:
        base = base.filter(submission__author__in=[a for a in authors if a is not None])
    took = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    used: dict[int | None, float] = {}
    for row in (base.filter(finished_at__isnull=False).exclude(status=EvalStatus.RUNNING)
                .values("submission__author").annotate(t=Sum(took)).order_by()):
        used[row["submission__author"]] = row["t"].total_seconds() if row["t"] is not None else 0.0
    now = timezone.now()
    for author, started in base.filter(status=EvalStatus.RUNNING).values_list("submission__author", "started_at"):
        used[author] = used.get(author, 0.0) + max(0.0, (now - started).total_seconds())
    return used


def llms_of(user) -> QuerySet[LanguageModel]:
    return LanguageModel.objects.filter(owner=user).annotate(n_runs=Count("runs"))


def runs_of(user) -> QuerySet[Run]:
    return (Run.objects.filter(model__owner=user).select_related("model")
            .annotate(n_submissions=Count("submissions")))


def run_get(pk: int) -> Run | None:
    return Run.objects.select_related("model", "model__owner").filter(pk=pk).first()
