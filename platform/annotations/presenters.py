"""What the workspace pages render: editor, fix verdict and review contexts.

Code is shown through submissions.presenters.listing (pygments, escaped, one anchor per line),
so a section's line range maps onto rows ``#k-L<start>`` … ``#k-L<end>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotations import roles
from annotations.models import Annotation, Item, QueueKind, ReviewComment, Status
from annotations.schema import SectionKind, category_choices, section_kinds
from annotations.selectors import measured_evaluation, primary_evaluation, review_annotations
from submissions import diffs
from submissions.highlight import render_markdown
from submissions.presenters import evaluation_view, listing, source_listings
from tasks.presenters import spec_view


@dataclass
class SectionView:
    kind: SectionKind
    text: str = ""
    #: The linked line ranges, [[from, to], ...].
    ranges: list[list[int]] = field(default_factory=list)
    comments: list[ReviewComment] = field(default_factory=list)
    source_id: int | None = None  # merge: the annotation it came from

    @property
    def start(self) -> int | None:
        return self.ranges[0][0] if self.ranges else None

    @property
    def lines_label(self) -> str:
        return ", ".join(f"L{a}" if a == b else f"L{a}–{b}" for a, b in self.ranges)

    @property
    def lines_text(self) -> str:
        """What the section's lines field shows and posts back: "6-9, 14"."""
        return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in self.ranges)

    @property
    def lines_data(self) -> str:
        """For the page's script: "6-9,14-14"."""
        return ",".join(f"{a}-{b}" for a, b in self.ranges)


def stored_ranges(lines) -> list[list[int]]:
    """A stored section's ranges ([[a, b], ...]; rows saved before sections linked several
    ranges hold one [a, b] pair, which migration 0002 rewrote, but exports may carry it)."""
    if not isinstance(lines, list | tuple) or not lines:
        return []
    if all(isinstance(n, int) for n in lines) and len(lines) == 2:
        return [list(lines)]
    return [list(r) for r in lines if isinstance(r, list | tuple) and len(r) == 2 and all(isinstance(n, int) for n in r)]


def section_views(annotation: Annotation, *, comments: list[ReviewComment] | None = None,
                  only_filled: bool = False) -> list[SectionView]:
    stored = {s.get("kind"): s for s in annotation.sections or [] if isinstance(s, dict)}
    by_section: dict[str, list[ReviewComment]] = {}
    for comment in comments or []:
        by_section.setdefault(comment.section, []).append(comment)
    out = []
    for kind in section_kinds(annotation.item.kind):
        entry = stored.get(kind.key) or {}
        view = SectionView(kind, entry.get("text", ""), stored_ranges(entry.get("lines")),
                           by_section.get(kind.key, []), (annotation.merged_from or {}).get(kind.key))
        if only_filled and not (view.text or view.start):
            continue
        out.append(view)
    return out


def _latest_comments(annotation: Annotation) -> list[ReviewComment]:
    """The comments of the last review round (what the annotator has to address now)."""
    comments = list(annotation.comments.select_related("author"))
    if not comments:
        return []
    last = max(c.revision for c in comments)
    return [c for c in comments if c.revision == last]


def _failing_context(item: Item) -> dict:
    submission = item.submission
    evaluation = primary_evaluation(submission)
    if submission is None or evaluation is None:
        return {}
    ev = evaluation_view(evaluation, submission)
    return {"failing": submission, "failing_ev": ev, "failing_listings": source_listings(submission, ev.notes)}


def fix_status_context(annotation: Annotation) -> dict:
    fix = annotation.fix_submission
    evaluation = primary_evaluation(fix)
    ev = evaluation_view(evaluation, fix) if evaluation is not None else None
    return {
        "annotation": annotation,
        "fix": fix,
        "fix_ev": ev,
        "stale": fix is not None and fix.kernel_source != annotation.fixed_kernel,
    }


def _measured_context(item: Item) -> dict:
    """What the explanation's performance section needs beside the code: the task's spec and
    the kernel's measured result (cycles per case, pipe busy time, the timeline)."""
    version = item.task_version or (item.task.current_version if item.task_id else None)
    spec = spec_view(version.spec, item.task.dtypes or ()) if version is not None and item.task_id else None
    evaluation, submission = measured_evaluation(item)
    measured = evaluation_view(evaluation, submission) if evaluation is not None else None
    return {"spec": spec, "measured": measured, "measured_submission": submission}


def editor_context(annotation: Annotation, *, user) -> dict:
    item = annotation.item
    comments = _latest_comments(annotation) if annotation.status == Status.CHANGES_REQUESTED else []
    context = {
        "annotation": annotation,
        "item": item,
        "queue": item.queue,
        "guidelines": render_markdown(item.queue.guidelines),
        "editable": annotation.status in (Status.DRAFT, Status.CHANGES_REQUESTED),
        "sections": section_views(annotation, comments=comments),
        "general_comments": [c for c in comments if c.section in ("", "diagnosis", "kernel")],
        "history": list(annotation.comments.select_related("author")),
        "is_reviewer": roles.can_review(user),
    }
    if item.kind == QueueKind.EXPLAIN:
        context["code"] = listing("kernel", "kernel.cpp", item.kernel)
        context.update(_measured_context(item))
    elif item.kind == QueueKind.FIX:
        context.update(_failing_context(item))
        context.update(fix_status_context(annotation))
        context["fixed_kernel"] = annotation.fixed_kernel or item.kernel
        context["categories"] = category_choices()
        context["category"] = annotation.category or item.category
    elif item.kind == QueueKind.DOCQA:
        context["question"] = render_markdown(item.question)
    return context


@dataclass
class ReviewCard:
    annotation: Annotation
    sections: list[SectionView]
    comments: list[ReviewComment]
    diff: object | None = None
    fix_ev: object | None = None
    letter: str = "A"
    can_decide: bool = False

    @property
    def by_kind(self) -> dict[str, SectionView]:
        return {s.kind.key: s for s in self.sections}


def review_context(item: Item, *, user) -> dict:
    annotations = review_annotations(user, item)
    cards = []
    for index, annotation in enumerate(annotations):
        comments = list(annotation.comments.all())
        current = [c for c in comments if c.revision == annotation.revision]
        card = ReviewCard(annotation, section_views(annotation, comments=current, only_filled=True),
                          comments, letter=chr(ord("A") + index % 26),
                          can_decide=annotation.status == Status.SUBMITTED and annotation.annotator_id != user.pk)
        if item.kind == QueueKind.FIX and annotation.fix_submission_id:
            card.diff = diffs.file_diff("kernel.cpp", item.kernel, annotation.fix_submission.kernel_source,
                                        layout="unified", context=3)
            evaluation = primary_evaluation(annotation.fix_submission)
            card.fix_ev = evaluation_view(evaluation, annotation.fix_submission) if evaluation else None
        cards.append(card)
    submitted = [c for c in cards if c.annotation.status == Status.SUBMITTED and c.can_decide]
    merge_rows = []
    for kind in section_kinds(item.kind):
        cells = [(card, card.by_kind.get(kind.key)) for card in submitted]
        first = next((card for card, section in cells if section is not None), None)
        if first is not None:
            merge_rows.append((kind, [(card, section, card is first) for card, section in cells]))
    context = {
        "item": item,
        "queue": item.queue,
        "cards": cards,
        "merge_rows": merge_rows,
        "side_by_side": len(cards) >= 2,
        "mergeable": item.kind != QueueKind.FIX and len(submitted) >= 2,
        "merge_cards": submitted,
        "section_kinds": section_kinds(item.kind),
        "guidelines": render_markdown(item.queue.guidelines),
    }
    if item.kind == QueueKind.EXPLAIN:
        context["code"] = listing("kernel", "kernel.cpp", item.kernel)
        context.update(_measured_context(item))
    elif item.kind == QueueKind.FIX:
        context.update(_failing_context(item))
    elif item.kind == QueueKind.DOCQA:
        context["question"] = render_markdown(item.question)
    return context
