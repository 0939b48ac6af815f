from django.conf import settings
from django.db import models
from django.db.models import Q

from bench_runner.contracts import DEFAULT_SOC, VERDICTS


class TrainingStage(models.TextChoices):
    BASE = "base", "Base"
    SFT = "sft", "SFT"
    SFT_DPO = "sft_dpo", "SFT+DPO"  # the AscendKernelGen recipe: SFT, then DPO on execution preferences
    SFT_RL = "sft_rl", "SFT+RL"


class LanguageModel(models.Model):
    """An LLM whose kernels are benchmarked (called "Model" in the product)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="llms")
    name = models.CharField(max_length=120, unique=True)
    base_model = models.CharField(max_length=200, blank=True)
    training_stage = models.CharField(max_length=16, choices=TrainingStage.choices, default=TrainingStage.BASE)
    parameters = models.CharField(max_length=40, blank=True, help_text="e.g. 7B")
    link = models.URLField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Run(models.Model):
    """A model sampling k kernels per task with one decoding configuration."""

    model = models.ForeignKey(LanguageModel, on_delete=models.CASCADE, related_name="runs")
    name = models.CharField(max_length=120)
    samples_per_task = models.PositiveIntegerField(default=1)
    decoding = models.JSONField(default=dict, blank=True)
    path = models.CharField(max_length=16, default="device_only")
    toolchain = models.CharField(max_length=32, default="cpu-sim")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.model.name}/{self.name}"


class Path_(models.TextChoices):
    DEVICE_ONLY = "device_only", "Device only (fixed host driver)"
    HOST_DEVICE = "host_device", "Host + device (your tiling)"


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"
    PRIVATE = "private", "Private"


class Submission(models.Model):
    """Source files submitted for one task version; immutable once saved."""

    task = models.ForeignKey("tasks.Task", on_delete=models.PROTECT, related_name="submissions")
    task_version = models.ForeignKey("tasks.TaskVersion", on_delete=models.PROTECT, related_name="submissions")
    path = models.CharField(max_length=16, choices=Path_.choices)
    kernel_source = models.TextField()
    host_source = models.TextField(null=True, blank=True)  # noqa: DJ001 (None = no host file)
    #: The model's reasoning before the answer (a <think> block), kept for training data; never
    #: compiled, not part of sha256.
    reasoning = models.TextField(blank=True, default="")
    sha256 = models.CharField(max_length=64, db_index=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="submissions"
    )
    run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.CASCADE, related_name="submissions")
    sample_index = models.PositiveIntegerField(null=True, blank=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "task", "sample_index"],
                condition=Q(run__isnull=False),
                name="submission_unique_run_sample",
            )
        ]
        # Task pages aggregate per (task, version); without it they scan every submission.
        indexes = [models.Index(fields=["task", "task_version"], name="submission_task_version")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.task_id}"


#: How an unjudged evaluation's error starts when the evaluator refused the input (a reason the
#: submitter may read); other infrastructure errors are for staff only.
REFUSED_PREFIX = "The evaluator refused this submission: "


class EvalStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed (infrastructure)"


#: Not yet ended: what counts against the pending cap and what the overdue rule watches.
PENDING_STATUSES = (EvalStatus.QUEUED, EvalStatus.RUNNING)


class Evaluation(models.Model):
    """One submission judged on one toolchain and SoC; the database row is the source of truth.

    A worker claims the row (status running, attempt+1, a lease) before evaluating and finishes
    it only if its attempt is still the current one, so redelivered messages never judge twice.
    """

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="evaluations")
    toolchain = models.CharField(max_length=32, default="cpu-sim")
    soc = models.CharField(max_length=32, default=DEFAULT_SOC)
    status = models.CharField(max_length=16, choices=EvalStatus.choices, default=EvalStatus.QUEUED, db_index=True)
    stage = models.CharField(max_length=16, blank=True, default="", help_text="Live stage while running.")
    #: bench_runner.contracts.Verdict; "" until the evaluation ends.
    verdict = models.CharField(max_length=32, blank=True, default="", db_index=True,
                               choices=[(v, v.replace("_", " ")) for v in VERDICTS])
    result = models.JSONField(null=True, blank=True)
    compiled = models.BooleanField(null=True)
    passed = models.BooleanField(null=True)
    speedup = models.FloatField(null=True, blank=True)
    # Set when a failed evaluation finishes (leaderboard.metrics.failure_category): the taxonomy
    # drill-down filters on it instead of reading every result JSON.
    failure_category = models.CharField(max_length=40, blank=True, default="", db_index=True)
    cycles = models.BigIntegerField(null=True, blank=True)
    #: The evaluator's record called the speedup suspicious (bench_runner.contracts): copied so
    #: the ranked-kernel rebuild need not read every result JSON.
    suspicious = models.BooleanField(default=False)
    worker = models.CharField(max_length=200, blank=True, default="")
    attempt = models.PositiveIntegerField(default=0)
    infra_failures = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="", help_text="Infrastructure failure reason.")
    lease_until = models.DateTimeField(null=True, blank=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "toolchain", "soc"], name="evaluation_unique_target")
        ]
        indexes = [
            models.Index(fields=["status", "lease_until"], name="evaluation_status_lease"),
            models.Index(fields=["submission", "status"], name="evaluation_submission_status"),
            # Fair dispatch counts each waiting submitter's recent starts (workers.pipeline).
            models.Index(fields=["started_at"], name="evaluation_started_at"),
        ]

    def __str__(self) -> str:
        return f"eval #{self.pk} of submission #{self.submission_id} on {self.toolchain}"

    @property
    def is_finished(self) -> bool:
        return self.status in (EvalStatus.DONE, EvalStatus.FAILED)
