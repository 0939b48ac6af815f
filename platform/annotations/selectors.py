"""Read-side queries of the expert workspace, with its visibility rules.

* An annotator sees the items of open queues and the items they hold an annotation on, and
  only their own annotations; another annotator's draft does not exist for them.
* A reviewer sees every item and every annotation that has left the draft state.
* A workspace admin sees everything.

``approved_annotations`` is the contract with the Ascend-CoT exporter (issue #9).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Exists, Min, OuterRef, Q, QuerySet
from django.utils import timezone

from annotations import roles
from annotations.errors import NotVisible
from annotations.models import Annotation, Item, Queue, QueueKind, Status
from submissions.intake import source_sha256
from submissions.models import Evaluation, Submission, Visibility
from submissions.selectors import visibility_q


def primary_evaluation(submission: Submission | None) -> Evaluation | None:
    if submission is None:
        return None
    return submission.evaluations.order_by("pk").first()


def measured_evaluation(item) -> tuple[Evaluation | None, Submission | None]:
    """The judged run an explanation's performance section can cite: the item's own submission's,
    or for an expert kernel the latest passing evaluation of the same source on its task."""
    if item.submission_id is not None:
        return primary_evaluation(item.submission), item.submission
    if item.task_id is None or not item.kernel:
        return None, None
    evaluation = (Evaluation.objects.filter(submission__task_id=item.task_id, passed=True,
                                            submission__sha256=source_sha256(item.kernel, None),
                                            submission__visibility=Visibility.PUBLIC)
                  .select_related("submission").order_by("-finished_at").first())
    return (evaluation, evaluation.submission) if evaluation is not None else (None, None)


# --- visibility ----------------------------------------------------------------------------------


def sees_everything(user) -> bool:
    return roles.can_review(user) or roles.can_manage(user)


def items_visible_to(user) -> QuerySet[Item]:
    """Items ``user`` may open: everything for reviewers/admins; open queues and own assignments
    for annotators; nothing for anyone else — and never an item whose submission the user may not
    see (submissions.selectors.visibility_q), whatever the role."""
    qs = Item.objects.select_related("queue", "task", "task_version", "submission")
    seen = visibility_q(user, via="submission__")
    if seen is not None:
        qs = qs.filter(Q(submission__isnull=True) | seen)
    if sees_everything(user):
        return qs
    if not roles.can_annotate(user):
        return qs.none()
    mine = Annotation.objects.filter(item=OuterRef("pk"), annotator=user)
    return qs.filter(Q(queue__is_open=True) | Exists(mine))


def item_visible_to(user, item: Item) -> bool:
    return items_visible_to(user).filter(pk=item.pk).exists()


def item_get_visible(user, pk: int) -> Item:
    item = items_visible_to(user).filter(pk=pk).first()
    if item is None:
        raise NotVisible("No such workspace item, or it is not in your queues.")
    return item


def annotations_visible_to(user) -> QuerySet[Annotation]:
    """Own annotations always; others' only for reviewers/admins and never while a draft."""
    qs = Annotation.objects.select_related("item", "item__queue", "annotator", "fix_submission")
    if not (user and user.is_authenticated):
        return qs.none()
    if sees_everything(user):
        return qs.filter(Q(annotator=user) | ~Q(status=Status.DRAFT))
    return qs.filter(annotator=user)


def annotation_get_visible(user, pk: int) -> Annotation:
    annotation = annotations_visible_to(user).filter(pk=pk).first()
    if annotation is None:
        raise NotVisible("No such annotation.")
    return annotation


def annotation_get_own(user, pk: int) -> Annotation:
    annotation = annotations_visible_to(user).filter(pk=pk, annotator=user).first()
    if annotation is None:
        raise NotVisible("No such annotation.")
    return annotation


def queues_visible_to(user) -> QuerySet[Queue]:
    if sees_everything(user):
        return Queue.objects.all()
    if not roles.can_annotate(user):
        return Queue.objects.none()
    return Queue.objects.filter(Q(is_open=True) | Q(items__annotations__annotator=user)).distinct()


def queue_get_visible(user, slug: str) -> Queue:
    queue = queues_visible_to(user).filter(slug=slug).first()
    if queue is None:
        raise NotVisible("No such queue, or it is not one of yours.")
    return queue


# --- an annotator's lists --------------------------------------------------------------------


def my_annotations(user, *, statuses: Iterable[str] | None = None) -> QuerySet[Annotation]:
    qs = Annotation.objects.filter(annotator=user).select_related("item", "item__queue", "item__task")
    if statuses is not None:
        qs = qs.filter(status__in=list(statuses))
    return qs.order_by("-updated_at")


def queue_items(user, queue: Queue) -> list[Item]:
    """The queue's items as ``user`` sees them, each with ``mine`` (their annotation or None),
    ``active`` (annotators on it) and ``approved`` counts."""
    items = list(
        items_visible_to(user).filter(queue=queue).annotate(
            active=Count("annotations", filter=~Q(annotations__status=Status.SUPERSEDED)),
            approved=Count("annotations", filter=Q(annotations__status=Status.APPROVED)),
            waiting=Count("annotations", filter=Q(annotations__status=Status.SUBMITTED)),
        ).order_by("created_at", "pk")
    )
    mine = {a.item_id: a for a in Annotation.objects.filter(annotator=user, item__queue=queue)}
    for item in items:
        item.mine = mine.get(item.pk)
        item.can_claim = item.mine is None and queue.is_open and item.active < queue.overlap_target
    return items


# --- review ------------------------------------------------------------------------------------


def review_backlog(user) -> list[Item]:
    """Items with annotations awaiting review, oldest submission first; empty for non-reviewers."""
    if not roles.can_review(user):
        return []
    waiting = Annotation.objects.filter(item=OuterRef("pk"), status=Status.SUBMITTED).exclude(annotator=user)
    return list(
        Item.objects.filter(Exists(waiting))
        .annotate(waiting=Count("annotations", filter=Q(annotations__status=Status.SUBMITTED)),
                  oldest=Min("annotations__submitted_at", filter=Q(annotations__status=Status.SUBMITTED)))
        .select_related("queue", "task").order_by("oldest", "pk")
    )


def review_annotations(user, item: Item) -> list[Annotation]:
    """The non-draft annotations of ``item`` a reviewer compares side by side."""
    if not roles.can_review(user):
        return []
    return list(item.annotations.exclude(status=Status.DRAFT)
                .select_related("annotator", "fix_submission").prefetch_related("comments", "comments__author"))


# --- dashboard -------------------------------------------------------------------------------


def cohen_kappa(pairs: list[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two raters' labels, ``pairs`` = [(label_a, label_b)]; None if undefined."""
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(1 for a, b in pairs if a == b) / n
    first = Counter(a for a, _ in pairs)
    second = Counter(b for _, b in pairs)
    expected = sum(first[c] * second[c] for c in set(first) | set(second)) / (n * n)
    if math.isclose(expected, 1.0):
        return 1.0 if math.isclose(observed, 1.0) else None
    return (observed - expected) / (1 - expected)


@dataclass
class QueueProgress:
    queue: Queue
    items: int
    done: int  # items with an approved annotation
    by_status: dict[str, int]
    below_target: int  # items with fewer annotators than the overlap target

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.items) if self.items else 0


@dataclass
class AnnotatorStats:
    username: str
    submitted_7d: int
    approved: int
    changes_requested: int
    open: int
    median_s: float | None  # active seconds per submitted item


@dataclass
class Agreement:
    kappa: float | None
    pairs: int
    agreed: int
    classifier_kappa: float | None
    classifier_pairs: int
    corrected: int


@dataclass
class Dashboard:
    queues: list[QueueProgress]
    annotators: list[AnnotatorStats]
    agreement: Agreement
    backlog_review: int
    backlog_unstarted: int
    oldest_waiting: datetime | None = None
    categories: list[tuple[str, int]] = field(default_factory=list)


def _median(values: list[int]) -> float | None:
    if not values:
        return None
    values = sorted(values)
    mid = len(values) // 2
    return float(values[mid]) if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def category_agreement() -> Agreement:
    """Agreement on root-cause categories of fix items: between the first two annotators of
    every item both submitted (Cohen's kappa), and between annotators and the classifier."""
    rows = (Annotation.objects.filter(item__queue__kind=QueueKind.FIX, status__in=[Status.SUBMITTED, Status.APPROVED,
                                                                                 Status.SUPERSEDED])
            .exclude(category="").order_by("item_id", "pk").values_list("item_id", "category", "item__category"))
    per_item: dict[int, list[str]] = defaultdict(list)
    classifier_pairs = []
    for item_id, category, classifier in rows:
        per_item[item_id].append(category)
        if classifier:
            classifier_pairs.append((category, classifier))
    pairs = [(labels[0], labels[1]) for labels in per_item.values() if len(labels) >= 2]
    return Agreement(
        kappa=cohen_kappa(pairs), pairs=len(pairs), agreed=sum(1 for a, b in pairs if a == b),
        classifier_kappa=cohen_kappa(classifier_pairs), classifier_pairs=len(classifier_pairs),
        corrected=sum(1 for a, b in classifier_pairs if a != b),
    )


def dashboard(user) -> Dashboard:
    """Per-queue progress, throughput per annotator, agreement and backlog (reviewers/admins)."""
    if not sees_everything(user):
        raise NotVisible("The dashboard is for reviewers and workspace admins.")
    queues = []
    for queue in Queue.objects.annotate(n_items=Count("items", distinct=True)):
        statuses = dict(Annotation.objects.filter(item__queue=queue).values_list("status")
                        .annotate(n=Count("pk")).values_list("status", "n"))
        items = queue.items.annotate(
            active=Count("annotations", filter=~Q(annotations__status=Status.SUPERSEDED)),
            approved=Count("annotations", filter=Q(annotations__status=Status.APPROVED)),
        )
        queues.append(QueueProgress(
            queue=queue, items=queue.n_items, done=items.filter(approved__gt=0).count(),
            by_status={s.value: statuses.get(s.value, 0) for s in Status},
            below_target=items.filter(active__lt=queue.overlap_target).count(),
        ))
    week_ago = timezone.now() - timedelta(days=7)
    people = []
    per_user = defaultdict(list)
    for username, seconds in (Annotation.objects.filter(status__in=[Status.SUBMITTED, Status.APPROVED])
                              .values_list("annotator__username", "time_spent_s")):
        per_user[username].append(seconds)
    stats = (Annotation.objects.values("annotator__username").annotate(
        submitted_7d=Count("pk", filter=Q(submitted_at__gte=week_ago)),
        approved=Count("pk", filter=Q(status=Status.APPROVED)),
        changes=Count("pk", filter=Q(status=Status.CHANGES_REQUESTED)),
        open=Count("pk", filter=Q(status__in=[Status.DRAFT, Status.CHANGES_REQUESTED])),
    ).order_by("-approved", "annotator__username"))
    for row in stats:
        median = _median(per_user.get(row["annotator__username"], []))
        people.append(AnnotatorStats(row["annotator__username"], row["submitted_7d"], row["approved"],
                                     row["changes"], row["open"], median))
    waiting = Annotation.objects.filter(status=Status.SUBMITTED)
    categories = Counter(Annotation.objects.filter(item__queue__kind=QueueKind.FIX, status=Status.APPROVED)
                         .exclude(category="").values_list("category", flat=True))
    return Dashboard(
        queues=queues, annotators=people, agreement=category_agreement(),
        backlog_review=waiting.count(),
        backlog_unstarted=Item.objects.filter(annotations=None).count(),
        oldest_waiting=waiting.order_by("submitted_at").values_list("submitted_at", flat=True).first(),
        categories=categories.most_common(10),
    )


# --- export contract (issue #9) --------------------------------------------------------------


@dataclass(frozen=True)
class ApprovedRecord:
    """One approved annotation with everything an Ascend-CoT record needs.

    kind: explain | fix | docqa. ``kernel`` is the explained kernel (explain) or the failing one
    (fix); ``fixed_kernel`` the fix as judged passing; ``sections`` as stored
    ([{kind, text, lines}], lines into ``kernel`` for explain, into ``fixed_kernel`` for fix).
    """

    annotation_id: int
    item_id: int
    queue: str
    kind: str
    task_slug: str | None
    task_version: str | None  # the content hash
    source: str  # expert | submission | question
    submission_id: int | None
    kernel: str
    host: str | None
    path: str | None
    sections: list[dict]
    question: str
    diagnosis: str
    category: str  # the annotator's root-cause category
    classifier_category: str  # what the taxonomy said when the item was queued
    failing_verdict: str
    failing_log: str
    failing_result: dict | None
    fixed_kernel: str
    fix_submission_id: int | None
    fix_kind: str  # "api" (from a compile error) | "kernel" (from a run/numerical failure) | ""
    annotator: str
    reviewer: str
    approved_at: datetime | None
    time_spent_s: int


def approved_annotations(*, kind: str | None = None, queue: str | None = None,
                         since: datetime | None = None, task_slugs: Iterable[str] | None = None) -> list[ApprovedRecord]:
    """Every approved annotation (optionally of one kind, queue slug, task set, or reviewed
    after ``since``), oldest first, as plain records for the exporter."""
    qs = (Annotation.objects.filter(status=Status.APPROVED)
          .select_related("item", "item__queue", "item__task", "item__task_version", "item__submission",
                          "fix_submission", "annotator", "reviewer").order_by("reviewed_at", "pk"))
    if kind:
        qs = qs.filter(item__queue__kind=kind)
    if queue:
        qs = qs.filter(item__queue__slug=queue)
    if since:
        qs = qs.filter(reviewed_at__gte=since)
    if task_slugs is not None:
        qs = qs.filter(item__task__slug__in=list(task_slugs))
    failing_ids = {a.item.submission_id for a in qs if a.item.queue.kind == QueueKind.FIX and a.item.submission_id}
    failing_eval = {}
    for evaluation in Evaluation.objects.filter(submission_id__in=failing_ids).order_by("-pk"):
        failing_eval[evaluation.submission_id] = evaluation
    records = []
    for a in qs:
        item = a.item
        is_fix = item.queue.kind == QueueKind.FIX
        evaluation = failing_eval.get(item.submission_id) if is_fix else None
        result = evaluation.result if evaluation is not None and isinstance(evaluation.result, dict) else None
        verdict = evaluation.verdict if evaluation is not None else ""
        records.append(ApprovedRecord(
            annotation_id=a.pk, item_id=item.pk, queue=item.queue.slug, kind=item.queue.kind,
            task_slug=item.task.slug if item.task_id else None,
            task_version=item.task_version.content_hash if item.task_version_id else None,
            source=item.source, submission_id=item.submission_id, kernel=item.kernel,
            host=item.submission.host_source if item.submission_id else (
                item.task_version.expert_host or None if item.task_version_id else None),
            path=item.submission.path if item.submission_id else None,
            sections=list(a.sections or []), question=item.question, diagnosis=a.diagnosis, category=a.category,
            classifier_category=item.category, failing_verdict=verdict,
            failing_log=(result or {}).get("compile_log") or "" if result else "", failing_result=result,
            fixed_kernel=a.fix_submission.kernel_source if is_fix and a.fix_submission_id else "",
            fix_submission_id=a.fix_submission_id if is_fix else None,
            fix_kind=("api" if verdict == "compile_error" else "kernel") if is_fix else "",
            annotator=a.annotator.get_username(), reviewer=a.reviewer.get_username() if a.reviewer_id else "",
            approved_at=a.reviewed_at, time_spent_s=a.time_spent_s,
        ))
    return records
