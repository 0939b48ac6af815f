"""The expert workspace: queues of items that experts annotate, and the reviews of their work.

A Queue holds Items of one kind (explain a correct kernel, fix a failed one, answer a
documentation question). Each expert working on an item has one Annotation (the assignment and
its content); reviewers approve it or request changes with ReviewComments. Approved annotations
are what the Ascend-CoT exporter reads (annotations.selectors.approved_annotations).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class QueueKind(models.TextChoices):
    EXPLAIN = "explain", "Explain"
    FIX = "fix", "Fix"
    DOCQA = "docqa", "Doc Q&A"


class Queue(models.Model):
    """A list of items of one kind with its guidelines and how many experts each item needs."""

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=16, choices=QueueKind.choices)
    description = models.CharField(max_length=300, blank=True)
    guidelines = models.TextField(blank=True, help_text="Markdown, shown beside every item of the queue.")
    overlap_target = models.PositiveSmallIntegerField(
        default=1, help_text="How many annotators should work on each item (2 gives agreement figures)."
    )
    is_open = models.BooleanField(
        default=True, help_text="Any annotator may pick items of an open queue; closed queues show only assigned items."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "name"]
        permissions = [
            ("annotate", "Can work on workspace items"),
            ("review", "Can review and approve workspace annotations"),
            ("manage", "Can create queues, fill them and assign items"),
        ]

    def __str__(self) -> str:
        return self.name


class ItemSource(models.TextChoices):
    EXPERT = "expert", "Expert kernel"
    SUBMISSION = "submission", "Submission"
    QUESTION = "question", "Question"


class Item(models.Model):
    """One thing to annotate: a task's expert kernel, a submission, or a question.

    The classifier's category of a failed submission is copied here when the item is made, so
    agreement can be measured against what the taxonomy said at the time.
    """

    queue = models.ForeignKey(Queue, on_delete=models.CASCADE, related_name="items")
    source = models.CharField(max_length=16, choices=ItemSource.choices)
    task = models.ForeignKey("tasks.Task", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    task_version = models.ForeignKey(
        "tasks.TaskVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    submission = models.ForeignKey(
        "submissions.Submission", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    title = models.CharField(max_length=200)
    question = models.TextField(blank=True, help_text="Doc Q&A: the question, markdown.")
    category = models.CharField(max_length=40, blank=True, help_text="The classifier's category (fix items).")
    verdict = models.CharField(max_length=32, blank=True, help_text="The failing verdict (fix items).")
    origin = models.CharField(max_length=40, default="manual", help_text="The rule that added it, or manual/import.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["queue", "submission"], condition=Q(submission__isnull=False),
                                    name="item_unique_submission"),
            models.UniqueConstraint(fields=["queue", "task_version"],
                                    condition=Q(source="expert"), name="item_unique_expert"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.title}"

    @property
    def kind(self) -> str:
        return self.queue.kind

    @property
    def kernel(self) -> str:
        """The kernel the item is about (the failing one for fix items)."""
        if self.source == ItemSource.SUBMISSION and self.submission_id:
            return self.submission.kernel_source
        if self.source == ItemSource.EXPERT and self.task_version_id:
            return self.task_version.expert_kernel
        return ""


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    APPROVED = "approved", "Approved"
    SUPERSEDED = "superseded", "Not chosen"


class Annotation(models.Model):
    """One expert's work on one item: the assignment, the draft and, once reviewed, the record.

    ``sections`` is a list of ``{"kind", "text", "lines": [[start, end], ...] | null}``; for fixes,
    ``diagnosis`` and ``category`` (the annotator's root-cause category) plus ``fix_submission``,
    the fixed kernel as judged by the workers; ``fixed_kernel`` is the editor's draft.
    """

    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="annotations")
    annotator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="annotations")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT, db_index=True)
    sections = models.JSONField(default=list, blank=True)
    diagnosis = models.TextField(blank=True)
    category = models.CharField(max_length=40, blank=True)
    fixed_kernel = models.TextField(blank=True)
    fix_submission = models.ForeignKey(
        "submissions.Submission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    time_spent_s = models.PositiveIntegerField(default=0)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_from = models.JSONField(default=dict, blank=True, help_text="Section kind -> annotation id it came from.")
    revision = models.PositiveIntegerField(default=0, help_text="Times submitted for review.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["item", "pk"]
        constraints = [models.UniqueConstraint(fields=["item", "annotator"], name="annotation_unique_annotator")]
        indexes = [models.Index(fields=["annotator", "status"], name="annotation_annotator_status")]

    def __str__(self) -> str:
        return f"annotation #{self.pk} of item #{self.item_id} by {self.annotator_id}"

    @property
    def classifier_corrected(self) -> bool:
        return bool(self.category and self.item.category and self.category != self.item.category)


class ReviewComment(models.Model):
    """A reviewer's remark on an annotation, on one section (``section`` = its kind) or overall."""

    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    section = models.CharField(max_length=40, blank=True)
    body = models.TextField()
    revision = models.PositiveIntegerField(default=0, help_text="The revision the comment was made on.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"comment on annotation #{self.annotation_id}"
