"""Write-side operations of the expert workspace.

Every function that acts for a person takes that person and checks their role and what they
may see here, not in the views or templates, so that pages, commands and tests share one rule.
Errors are annotations.errors types whose message says what to do next.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from annotations import roles
from annotations.errors import (
    FixNotPassing,
    InvalidContent,
    InvalidState,
    NotAllowed,
    NotVisible,
    QueueFull,
)
from annotations.models import Annotation, Item, ItemSource, Queue, QueueKind, ReviewComment, Status
from annotations.schema import (
    MAX_DIAGNOSIS_CHARS,
    MAX_SECTION_CHARS,
    category_choices,
    section_kinds,
)
from annotations.selectors import item_visible_to, primary_evaluation
from submissions.errors import SubmissionRejected, SubmittingTooFast, TooManyPending
from submissions.highlight import split_source
from submissions.intake import person_submit
from submissions.models import EvalStatus, Evaluation, Submission, Visibility
from submissions.selectors import is_visible_to, visibility_q
from tasks.models import TaskVersion

#: Statuses in which the annotator may still change their work.
EDITABLE = (Status.DRAFT, Status.CHANGES_REQUESTED)
#: Statuses that count towards an item's overlap target.
ACTIVE = (Status.DRAFT, Status.SUBMITTED, Status.CHANGES_REQUESTED, Status.APPROVED)
#: The most time one autosave may add: a tab left open overnight must not count as work.
MAX_SPENT_PER_SAVE_S = 300


# --- queues and items ------------------------------------------------------------------------


def _require_manager(user) -> None:
    if not roles.can_manage(user):
        raise NotAllowed("Only workspace admins manage queues; ask an admin to grant you the admin role.")


def queue_create(*, by, slug: str, name: str, kind: str, guidelines: str = "", overlap_target: int = 1,
                 is_open: bool = True, description: str = "") -> Queue:
    """A new queue; ``by`` must be a workspace admin (None for commands and migrations)."""
    if by is not None:
        _require_manager(by)
    if kind not in QueueKind.values:
        raise InvalidContent(f"Unknown queue kind '{kind}'; use one of {', '.join(QueueKind.values)}.")
    if overlap_target < 1:
        raise InvalidContent("The overlap target is at least 1 annotator per item.")
    if Queue.objects.filter(slug=slug).exists():
        raise InvalidContent(f"There is already a queue '{slug}'; choose another slug.")
    return Queue.objects.create(slug=slug, name=name, kind=kind, guidelines=guidelines,
                                overlap_target=overlap_target, is_open=is_open, description=description)


def queue_update(queue: Queue, *, by, name: str, guidelines: str, overlap_target: int, is_open: bool,
                 description: str = "") -> Queue:
    """Edit a queue's name, guidelines, overlap and openness (its slug and kind stay: items and
    links depend on them); ``by`` must be a workspace admin."""
    _require_manager(by)
    if overlap_target < 1:
        raise InvalidContent("The overlap target is at least 1 annotator per item.")
    queue.name, queue.guidelines, queue.overlap_target = name, guidelines, overlap_target
    queue.is_open, queue.description = is_open, description
    queue.save(update_fields=["name", "guidelines", "overlap_target", "is_open", "description"])
    return queue


def _create_item(**fields) -> Item | None:
    """Create an item unless the queue already holds the same kernel (None then)."""
    try:
        with transaction.atomic():
            return Item.objects.create(**fields)
    except IntegrityError:
        return None


def item_add_expert(queue: Queue, task_version: TaskVersion, *, by=None, origin: str = "manual") -> Item | None:
    """Queue a task's expert kernel for explanation; None if it is already queued or missing."""
    if queue.kind != QueueKind.EXPLAIN:
        raise InvalidContent(f"Expert kernels go to explain queues; '{queue.name}' is a {queue.kind} queue.")
    if not task_version.expert_kernel.strip():
        return None
    task = task_version.task
    return _create_item(queue=queue, source=ItemSource.EXPERT, task=task, task_version=task_version,
                        title=f"{task.title}: expert kernel", origin=origin, created_by=by)


def item_add_submission(queue: Queue, submission: Submission, *, by=None, origin: str = "manual") -> Item | None:
    """Queue a submission: a passing one to explain, a failing one to fix.

    A fix item records the failing verdict and the classifier's category as they are now; the
    annotator's own category is compared with it for the agreement figures.
    """
    if not is_visible_to(submission, None):  # annotators are not its author: only what everyone may see
        raise InvalidContent(f"Submission #{submission.pk} is private: only its author and staff may see it, so it "
                             "cannot go to the workspace.")
    evaluation = primary_evaluation(submission)
    if evaluation is None or evaluation.status != EvalStatus.DONE:
        raise InvalidState(f"Submission #{submission.pk} has not been judged yet; queue it once it has a verdict.")
    if queue.kind == QueueKind.FIX and evaluation.verdict in ("passed", "system_error"):
        raise InvalidContent(f"Submission #{submission.pk} {evaluation.verdict.replace('_', ' ')}; fix queues take "
                             "compile errors, wrong answers and runtime failures.")
    if queue.kind == QueueKind.EXPLAIN and evaluation.verdict != "passed":
        raise InvalidContent(f"Submission #{submission.pk} did not pass; explain queues take correct kernels only.")
    if queue.kind == QueueKind.DOCQA:
        raise InvalidContent("Doc Q&A queues take questions, not submissions.")
    task = submission.task
    if queue.kind == QueueKind.FIX:
        category = evaluation.failure_category
        title = f"{task.title}: {evaluation.verdict.replace('_', ' ')} ({category})"
    else:
        category = ""
        title = f"{task.title}: submission #{submission.pk}"
    return _create_item(queue=queue, source=ItemSource.SUBMISSION, task=task, task_version=submission.task_version,
                        submission=submission, title=title[:200], category=category,
                        verdict=evaluation.verdict if queue.kind == QueueKind.FIX else "", origin=origin,
                        created_by=by)


def item_add_question(queue: Queue, *, title: str, question: str, by=None, origin: str = "manual") -> Item:
    if queue.kind != QueueKind.DOCQA:
        raise InvalidContent(f"Questions go to Doc Q&A queues; '{queue.name}' is a {queue.kind} queue.")
    if not title.strip():
        raise InvalidContent("A question needs a title (its one-line form).")
    return Item.objects.create(queue=queue, source=ItemSource.QUESTION, title=title.strip()[:200],
                               question=question.strip(), origin=origin, created_by=by)


def item_add_by_hand(queue: Queue, ref: str, *, by, question: str = "") -> Item:
    """An admin adds one item: ``ref`` is a submission id ("#123" or "123"), a task slug (its
    expert kernel, explain queues) or, in a Doc Q&A queue, the question's title."""
    _require_manager(by)
    ref = (ref or "").strip()
    if queue.kind == QueueKind.DOCQA:
        return item_add_question(queue, title=ref, question=question, by=by)
    number = ref.lstrip("#")
    if number.isdigit():
        submission = Submission.objects.select_related("task").filter(pk=int(number)).first()
        if submission is None:
            raise InvalidContent(f"No submission #{number}.")
        item = item_add_submission(queue, submission, by=by)
    elif queue.kind == QueueKind.EXPLAIN:
        version = TaskVersion.objects.select_related("task").filter(task__slug=ref, task__current_version=F("pk")).first()
        if version is None:
            raise InvalidContent(f"No task '{ref}'. Give a task slug or a submission id.")
        if not version.expert_kernel.strip():
            raise InvalidContent(f"Task '{ref}' has no expert kernel to explain.")
        item = item_add_expert(queue, version, by=by)
    else:
        raise InvalidContent("Give the failed submission's id, e.g. #123.")
    if item is None:
        raise InvalidContent("That kernel is already in this queue.")
    return item


# --- rules that fill queues --------------------------------------------------------------------

#: How many recent failures the rules look at: enough for every category, bounded per request.
RULE_WINDOW = 5000


def _shared_evaluations():
    """Evaluations of submissions everyone may see (the workspace's annotators are not their authors)."""
    return Evaluation.objects.filter(visibility_q(None, via="submission__"))


def _failed_evaluations():
    return (_shared_evaluations().filter(status=EvalStatus.DONE, submission__task__retired=False)
            .exclude(verdict__in=["passed", "system_error", ""])
            .select_related("submission", "submission__task", "submission__task_version")
            .order_by("-finished_at", "-pk")[:RULE_WINDOW])


def _queued_submission_ids(queue: Queue) -> set[int]:
    return set(queue.items.exclude(submission=None).values_list("submission_id", flat=True))


def fill_new_failure_categories(queue: Queue, *, by=None) -> list[Item]:
    """One item per failure category no item of this queue covers yet (its latest example):
    a new way of failing is the first thing experts should look at."""
    covered = set(queue.items.exclude(category="").values_list("category", flat=True))
    added = []
    for evaluation in _failed_evaluations():
        category = evaluation.failure_category
        if category in covered:
            continue
        item = item_add_submission(queue, evaluation.submission, by=by, origin="rule:new_category")
        covered.add(category)
        if item is not None:
            added.append(item)
    return added


def fill_most_common_failure(queue: Queue, *, by=None) -> list[Item]:
    """Per task, one example of its most common failure category (ties: the latest)."""
    per_task: dict[int, Counter] = {}
    example: dict[tuple[int, str], Evaluation] = {}
    for evaluation in _failed_evaluations():
        category = evaluation.failure_category
        task_id = evaluation.submission.task_id
        per_task.setdefault(task_id, Counter())[category] += 1
        example.setdefault((task_id, category), evaluation)
    queued = _queued_submission_ids(queue)
    covered = set(queue.items.exclude(category="").values_list("task_id", "category"))
    added = []
    for task_id, counts in per_task.items():
        category = counts.most_common(1)[0][0]
        evaluation = example[(task_id, category)]
        if (task_id, category) in covered or evaluation.submission_id in queued:
            continue
        item = item_add_submission(queue, evaluation.submission, by=by, origin="rule:most_common_failure")
        if item is not None:
            added.append(item)
    return added


def fill_passing_sample(queue: Queue, *, count: int = 10, seed: int | None = None, by=None) -> list[Item]:
    """A random sample of passing model kernels (submissions of runs), for explanation."""
    queued = _queued_submission_ids(queue)
    candidates = list(
        _shared_evaluations().filter(status=EvalStatus.DONE, verdict="passed", submission__run__isnull=False,
                                     submission__task__retired=False)
        .exclude(submission_id__in=queued).values_list("submission_id", flat=True).distinct()[:RULE_WINDOW]
    )
    random.Random(seed).shuffle(candidates)
    added = []
    for submission in Submission.objects.filter(pk__in=candidates[:count]).select_related("task"):
        item = item_add_submission(queue, submission, by=by, origin="rule:passing_sample")
        if item is not None:
            added.append(item)
    return added


def fill_expert_kernels(queue: Queue, *, by=None) -> list[Item]:
    """Every current task version whose expert kernel has no explain item in this queue."""
    versions = (TaskVersion.objects.filter(task__retired=False, task__current_version=F("pk"))
                .exclude(expert_kernel="").select_related("task"))
    added = []
    for version in versions:
        item = item_add_expert(queue, version, by=by, origin="rule:expert_kernels")
        if item is not None:
            added.append(item)
    return added


RULES = {
    "new_failure_categories": (QueueKind.FIX, fill_new_failure_categories),
    "most_common_failure": (QueueKind.FIX, fill_most_common_failure),
    "passing_sample": (QueueKind.EXPLAIN, fill_passing_sample),
    "expert_kernels": (QueueKind.EXPLAIN, fill_expert_kernels),
}


def queue_fill(queue: Queue, rule: str, *, by) -> list[Item]:
    """Run one of RULES on ``queue`` for a workspace admin."""
    if by is not None:
        _require_manager(by)
    if rule not in RULES:
        raise InvalidContent(f"Unknown rule '{rule}'; use one of {', '.join(RULES)}.")
    kind, fill = RULES[rule]
    if queue.kind != kind:
        raise InvalidContent(f"The rule '{rule}' fills {kind} queues; '{queue.name}' is a {queue.kind} queue.")
    return fill(queue, by=by)


# --- assignment --------------------------------------------------------------------------------


def assign(queue: Queue, annotators: Iterable, *, by=None) -> list[Annotation]:
    """Give every item of ``queue`` that is below the overlap target to the least loaded
    ``annotators`` who are not on it yet. Returns the new assignments."""
    if by is not None:
        _require_manager(by)
    people = [u for u in annotators if roles.can_annotate(u)]
    if not people:
        raise InvalidContent("None of the chosen people has the annotator role; grant it first.")
    load = Counter({u.pk: 0 for u in people})
    for row in (Annotation.objects.filter(annotator__in=people, status__in=EDITABLE)
                .values("annotator").annotate(n=Count("pk"))):
        load[row["annotator"]] = row["n"]
    created = []
    items = queue.items.annotate(
        active=Count("annotations", filter=Q(annotations__status__in=ACTIVE))
    ).filter(active__lt=queue.overlap_target).prefetch_related("annotations")
    for item in items:
        taken = {a.annotator_id for a in item.annotations.all()}
        free = sorted((u for u in people if u.pk not in taken), key=lambda u: (load[u.pk], u.pk))
        for person in free[: queue.overlap_target - item.active]:
            created.append(Annotation.objects.create(item=item, annotator=person, assigned_by=by))
            load[person.pk] += 1
    return created


def item_claim(user, item: Item) -> Annotation:
    """Start (or reopen) ``user``'s annotation of ``item``.

    Items of open queues can be picked by any annotator until the overlap target is reached;
    items of closed queues only by those they were assigned to.
    """
    if not roles.can_annotate(user):
        raise NotAllowed("You need the annotator role to work on workspace items; ask a workspace admin.")
    mine = Annotation.objects.filter(item=item, annotator=user).first()
    if mine is not None:
        return mine
    if not item_visible_to(user, item):
        raise NotVisible("No such workspace item.")
    with transaction.atomic():
        queue = Queue.objects.select_for_update().get(pk=item.queue_id)  # serialise claims of one queue
        if not queue.is_open:
            raise NotAllowed("This queue is closed: its items are assigned by a workspace admin.")
        active = item.annotations.filter(status__in=ACTIVE).count()
        if active >= queue.overlap_target:
            raise QueueFull(f"This item already has {active} annotator{'s' if active != 1 else ''} "
                            f"(the queue's target); pick another item.")
        return Annotation.objects.create(item=item, annotator=user)


# --- editing -----------------------------------------------------------------------------------


def _require_own_editable(user, annotation: Annotation) -> None:
    if annotation.annotator_id != getattr(user, "pk", None):
        raise NotVisible("No such annotation.")  # another's draft does not exist for you
    if not roles.can_annotate(user):
        raise NotAllowed("You need the annotator role to edit annotations.")
    if annotation.status not in EDITABLE:
        raise InvalidState(f"This annotation is {annotation.get_status_display().lower()} and can no longer be "
                           "edited; a reviewer can request changes to reopen it.")


#: How many line ranges one section may link.
MAX_LINE_RANGES = 20


def _one_range(raw, *, line_count: int, title: str) -> list[int] | None:
    try:
        start, end = (int(v) if v not in (None, "") else None for v in raw)
    except (TypeError, ValueError) as exc:
        raise InvalidContent(f"'{title}': each line range must be two numbers, from and to (e.g. 6-9).") from exc
    if start is None and end is None:
        return None
    start = start if start is not None else end
    end = end if end is not None else start
    if start > end:
        start, end = end, start
    if start < 1 or end > line_count:
        raise InvalidContent(f"'{title}': lines {start}–{end} are outside the kernel (1–{line_count}).")
    return [start, end]


def _pieces(raw) -> list:
    """The ranges in what a client sent: text ("6-9, 14"), one [from, to] pair (older clients,
    the two number fields) or a list of pairs."""
    if isinstance(raw, str):
        out = []
        for part in raw.replace("–", "-").replace("L", "").split(","):
            part = part.strip()
            if part:
                bounds = [b.strip() for b in part.split("-", 1)]
                out.append(bounds if len(bounds) == 2 else [bounds[0], bounds[0]])
        return out
    if isinstance(raw, list | tuple) and raw and all(isinstance(r, list | tuple) for r in raw):
        return list(raw)
    if isinstance(raw, list | tuple) and len(raw) == 2:
        return [raw]
    raise InvalidContent("Lines must be ranges like 6-9, 14-15.")


def line_ranges(raw, *, line_count: int, title: str) -> list[list[int]] | None:
    """A section's linked lines as sorted, distinct [from, to] ranges inside the code (None if none)."""
    if raw in (None, "", [], [None, None], ["", ""]):
        return None
    ranges = []
    for piece in _pieces(raw):
        one = _one_range(piece, line_count=line_count, title=title)
        if one is not None and one not in ranges:
            ranges.append(one)
    if len(ranges) > MAX_LINE_RANGES:
        raise InvalidContent(f"'{title}' links {len(ranges)} line ranges; the limit is {MAX_LINE_RANGES}.")
    return sorted(ranges) or None


def clean_sections(queue_kind: str, raw: list[dict], *, line_count: int) -> list[dict]:
    """Validate posted sections: known kinds in schema order, text size, line ranges inside the
    code; sections with neither text nor lines are dropped."""
    by_kind = {}
    for entry in raw or []:
        if isinstance(entry, dict) and isinstance(entry.get("kind"), str):
            by_kind[entry["kind"]] = entry
    unknown = set(by_kind) - {k.key for k in section_kinds(queue_kind)}
    if unknown:
        raise InvalidContent(f"Unknown section kind(s): {', '.join(sorted(unknown))}.")
    out = []
    for kind in section_kinds(queue_kind):
        entry = by_kind.get(kind.key)
        if entry is None:
            continue
        text = str(entry.get("text") or "").replace("\r\n", "\n").strip()
        if len(text) > MAX_SECTION_CHARS:
            raise InvalidContent(f"'{kind.title}' is {len(text)} characters; the limit is {MAX_SECTION_CHARS}.")
        lines = line_ranges(entry.get("lines"), line_count=line_count, title=kind.title) if kind.linkable else None
        if text or lines:
            out.append({"kind": kind.key, "text": text, "lines": lines})
    return out


def _code_line_count(annotation: Annotation) -> int:
    item = annotation.item
    if item.kind == QueueKind.FIX:  # the fix's lines point into the fixed kernel
        return len(split_source(annotation.fixed_kernel or item.kernel))
    return len(split_source(item.kernel))


def annotation_save(user, annotation: Annotation, *, sections: list[dict] | None = None, diagnosis: str | None = None,
                    category: str | None = None, fixed_kernel: str | None = None, spent_s: int = 0) -> Annotation:
    """Autosave a draft: only its annotator, only while it is editable. ``spent_s`` is the active
    time the page measured since its last save (capped per save)."""
    _require_own_editable(user, annotation)
    kind = annotation.item.kind
    if fixed_kernel is not None and kind == QueueKind.FIX:
        fixed_kernel = fixed_kernel.replace("\r\n", "\n")
        if len(fixed_kernel.encode("utf-8")) > 64 * 1024:
            raise InvalidContent("The fixed kernel is over 64 KiB, the submission limit.")
        annotation.fixed_kernel = fixed_kernel
    if sections is not None:
        annotation.sections = clean_sections(kind, sections, line_count=_code_line_count(annotation))
    if diagnosis is not None:
        if len(diagnosis) > MAX_DIAGNOSIS_CHARS:
            raise InvalidContent(f"The diagnosis is over {MAX_DIAGNOSIS_CHARS} characters.")
        annotation.diagnosis = diagnosis.replace("\r\n", "\n").strip()
    if category is not None:
        if category and category not in {code for code, _ in category_choices()}:
            raise InvalidContent(f"Unknown category '{category}'; pick one of the taxonomy's.")
        annotation.category = category
    annotation.time_spent_s += max(0, min(int(spent_s or 0), MAX_SPENT_PER_SAVE_S))
    annotation.save()
    return annotation


@dataclass
class FixRun:
    annotation: Annotation
    submission: Submission
    evaluation: Evaluation


def fix_evaluate(user, annotation: Annotation, kernel: str, *, spent_s: int = 0) -> FixRun:
    """Judge the kernel in the fix editor through the workers, like any submission.

    The submission belongs to the annotator and is private; it is the fix that review sees and
    the export records, with the failing submission it started from.
    """
    _require_own_editable(user, annotation)
    item = annotation.item
    if item.kind != QueueKind.FIX or item.submission_id is None:
        raise InvalidState("Only fix items are re-evaluated.")
    if not kernel.strip():
        raise InvalidContent("The editor is empty; write the fixed kernel first.")
    annotation_save(user, annotation, fixed_kernel=kernel, spent_s=spent_s)
    failing = item.submission
    try:  # the editor's rules: allowance, pending cap, sources (a fix is a submission like any other)
        created = person_submit(user=user, data={"task": failing.task.slug, "path": failing.path,
                                                 "kernel": annotation.fixed_kernel, "host": failing.host_source},
                                visibility=Visibility.PRIVATE)
    except (SubmittingTooFast, TooManyPending) as exc:
        raise InvalidState(exc.message) from exc
    except SubmissionRejected as exc:
        raise InvalidContent(f"The workers refused the kernel: {exc.message}") from exc
    annotation.fix_submission = created.submission
    annotation.save(update_fields=["fix_submission", "updated_at"])
    return FixRun(annotation, created.submission, created.evaluation)


def _check_complete(annotation: Annotation) -> None:
    kind = annotation.item.kind
    texts = {s["kind"]: s.get("text", "") for s in annotation.sections or []}
    if kind == QueueKind.EXPLAIN:
        if not any(texts.values()):
            raise InvalidContent("Write at least one section of the explanation before submitting it.")
    elif kind == QueueKind.DOCQA:
        if not texts.get("answer"):
            raise InvalidContent("Write the answer before submitting.")
    elif kind == QueueKind.FIX:
        if not annotation.diagnosis:
            raise InvalidContent("Write the diagnosis (the root cause) before submitting the fix.")
        if not annotation.category:
            raise InvalidContent("Pick the root-cause category before submitting the fix.")
        fix = annotation.fix_submission
        evaluation = primary_evaluation(fix) if fix is not None else None
        if evaluation is None:
            raise FixNotPassing("Re-evaluate the fixed kernel first: a fix goes to review once it passes.")
        if fix.kernel_source != annotation.fixed_kernel:
            raise FixNotPassing("The kernel changed since its last evaluation; re-evaluate it before submitting.")
        if evaluation.status != EvalStatus.DONE:
            raise FixNotPassing("The fixed kernel is still being judged; submit once the verdict is in.")
        if evaluation.verdict != "passed":
            raise FixNotPassing(f"The fixed kernel's verdict is {evaluation.verdict.replace('_', ' ')}; "
                                "a fix can be submitted only once it passes.")


def annotation_submit(user, annotation: Annotation, *, spent_s: int = 0) -> Annotation:
    """Send the annotation to review once it is complete (a fix: once it passes)."""
    _require_own_editable(user, annotation)
    _check_complete(annotation)
    annotation.status = Status.SUBMITTED
    annotation.submitted_at = timezone.now()
    annotation.revision += 1
    annotation.time_spent_s += max(0, min(int(spent_s or 0), MAX_SPENT_PER_SAVE_S))
    annotation.save()
    return annotation


# --- review ------------------------------------------------------------------------------------


def _require_reviewable(reviewer, annotation: Annotation) -> None:
    if not roles.can_review(reviewer):
        raise NotAllowed("Only reviewers approve or request changes; ask a workspace admin for the reviewer role.")
    if annotation.annotator_id == reviewer.pk:
        raise NotAllowed("You cannot review your own annotation; another reviewer has to.")
    if annotation.status != Status.SUBMITTED:
        raise InvalidState(f"This annotation is {annotation.get_status_display().lower()}, not awaiting review.")


def review_approve(reviewer, annotation: Annotation, *, note: str = "") -> Annotation:
    """Approve: the annotation becomes eligible for export."""
    _require_reviewable(reviewer, annotation)
    with transaction.atomic():
        if note.strip():
            ReviewComment.objects.create(annotation=annotation, author=reviewer, body=note.strip(),
                                         revision=annotation.revision)
        annotation.status = Status.APPROVED
        annotation.reviewer = reviewer
        annotation.reviewed_at = timezone.now()
        annotation.save()
    return annotation


def review_request_changes(reviewer, annotation: Annotation, *, comments: list[tuple[str, str]]) -> Annotation:
    """Send the annotation back with comments; ``comments`` are (section kind or "", text)."""
    _require_reviewable(reviewer, annotation)
    comments = [(section, body.strip()) for section, body in comments if body and body.strip()]
    if not comments:
        raise InvalidContent("Say what to change: write at least one comment, on a section or overall.")
    known = {k.key for k in section_kinds(annotation.item.kind)} | {"", "diagnosis", "kernel"}
    with transaction.atomic():
        for section, body in comments:
            if section not in known:
                raise InvalidContent(f"Unknown section '{section}' for a comment.")
            ReviewComment.objects.create(annotation=annotation, author=reviewer, section=section, body=body,
                                         revision=annotation.revision)
        annotation.status = Status.CHANGES_REQUESTED
        annotation.reviewer = reviewer
        annotation.reviewed_at = timezone.now()
        annotation.save()
    return annotation


def review_merge(reviewer, base: Annotation, *, picks: dict[str, int]) -> Annotation:
    """Approve ``base`` after taking some sections from another annotation of the same item.

    ``picks`` maps a section kind to the annotation id whose text and lines to use. The other
    submitted annotations of the item become "not chosen"; ``merged_from`` records the origin.
    """
    _require_reviewable(reviewer, base)
    others = {a.pk: a for a in base.item.annotations.filter(status=Status.SUBMITTED).exclude(pk=base.pk)}
    merged = {s["kind"]: s for s in base.sections or []}
    origin = {}
    for kind, source_id in picks.items():
        if source_id == base.pk:
            continue
        source = others.get(source_id)
        if source is None:
            raise InvalidContent(f"Annotation #{source_id} is not a submitted annotation of this item.")
        section = next((s for s in source.sections or [] if s["kind"] == kind), None)
        if section is None:
            merged.pop(kind, None)
        else:
            merged[kind] = dict(section)
        origin[kind] = source_id
    order = [k.key for k in section_kinds(base.item.kind)]
    with transaction.atomic():
        base.sections = [merged[k] for k in order if k in merged]
        base.merged_from = origin
        base.save()
        review_approve(reviewer, base)
        for other in others.values():
            other.status = Status.SUPERSEDED
            other.reviewer = reviewer
            other.reviewed_at = timezone.now()
            other.save()
    return base


# --- Doc Q&A import --------------------------------------------------------------------------

_QUESTION = re.compile(r"^##\s+(?!#)(?P<title>.+?)\s*$", re.MULTILINE)
_ANSWER = re.compile(r"^###\s+Answer\s*$", re.MULTILINE | re.IGNORECASE)
_REASONING = re.compile(r"^###\s+Reasoning\s*$", re.MULTILINE | re.IGNORECASE)


def docqa_import_markdown(queue: Queue, text: str, *, by) -> list[Item]:
    """Questions from markdown: each ``## Title`` starts one, its body is the question, and
    optional ``### Reasoning`` / ``### Answer`` parts become ``by``'s submitted annotation, so a
    reviewer checks imported answers like written ones."""
    _require_manager(by)
    if queue.kind != QueueKind.DOCQA:
        raise InvalidContent(f"'{queue.name}' is not a Doc Q&A queue.")
    heads = list(_QUESTION.finditer(text or ""))
    if not heads:
        raise InvalidContent("No questions found: start each with a '## ' heading.")
    items = []
    with transaction.atomic():
        for i, head in enumerate(heads):
            body = text[head.end(): heads[i + 1].start() if i + 1 < len(heads) else len(text)]
            parts = {"question": body}
            marks = sorted([(m.start(), m.end(), "answer") for m in _ANSWER.finditer(body)]
                           + [(m.start(), m.end(), "reasoning") for m in _REASONING.finditer(body)])
            if marks:
                parts["question"] = body[: marks[0][0]]
                for j, (_start, end, name) in enumerate(marks):
                    parts[name] = body[end: marks[j + 1][0] if j + 1 < len(marks) else len(body)].strip()
            item = item_add_question(queue, title=head.group("title"), question=parts["question"], by=by,
                                     origin="import")
            sections = [{"kind": k, "text": parts[k], "lines": None} for k in ("reasoning", "answer") if parts.get(k)]
            if sections:
                Annotation.objects.create(item=item, annotator=by, sections=sections, status=Status.SUBMITTED,
                                          submitted_at=timezone.now(), revision=1)
            items.append(item)
    return items


def user_by_name(username: str):
    return get_user_model().objects.filter(username=username).first()
