"""Aggregates kept up to date as evaluations finish, so leaderboards never scan evaluations.

Every row here is written by leaderboard.aggregates only, counted as each evaluation ends and
recomputed from submissions and evaluations by its rebuild; the incremental path and the rebuild
must agree, and a property test holds them to it. Human decisions (Quarantine, Dismissal, Report)
are rows of their own that no rebuild overwrites.
"""

from django.conf import settings
from django.db import models


class RunTaskStat(models.Model):
    """One run's judged samples of one task, per path and toolchain target."""

    run = models.ForeignKey("submissions.Run", on_delete=models.CASCADE, related_name="task_stats")
    task = models.ForeignKey("tasks.Task", on_delete=models.CASCADE, related_name="run_stats")
    path = models.CharField(max_length=16)
    toolchain = models.CharField(max_length=32)
    soc = models.CharField(max_length=32)
    n = models.PositiveIntegerField(default=0)
    n_compiled = models.PositiveIntegerField(default=0)
    n_passed = models.PositiveIntegerField(default=0)
    #: Samples that ended without a verdict (infrastructure failed after every retry): not in `n`,
    #: shown next to the run's numbers so a run is never silently judged on fewer samples.
    n_unjudged = models.PositiveIntegerField(default=0)
    best_speedup = models.FloatField(null=True, blank=True)
    speedup_count = models.PositiveIntegerField(default=0)
    speedup_sum = models.FloatField(default=0.0)
    speedup_log_sum = models.FloatField(default=0.0)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "task", "path", "toolchain", "soc"], name="run_task_stat_key")
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} × task {self.task_id}: {self.n_passed}/{self.n}"


class FailureCount(models.Model):
    """Failed evaluations per taxonomy category, per run (run NULL: people's submissions)."""

    run = models.ForeignKey("submissions.Run", null=True, blank=True, on_delete=models.CASCADE,
                            related_name="failure_counts")
    toolchain = models.CharField(max_length=32)
    category = models.CharField(max_length=40)
    count = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "toolchain", "category"], name="failure_count_key"),
            models.UniqueConstraint(fields=["toolchain", "category"], condition=models.Q(run__isnull=True),
                                    name="failure_count_people_key"),
        ]

    def __str__(self) -> str:
        return f"{self.category}: {self.count} (run {self.run_id})"


class TaskVerdictCount(models.Model):
    """Finished evaluations of one task version per target, verdict and compiled flag.

    The task list and the task page read their judged / compiled / passed counts and verdict mix
    from these rows (summing a handful of them), never from the evaluations. Unjudged samples
    (infrastructure failures) are the rows with verdict system_error.
    """

    task_version = models.ForeignKey("tasks.TaskVersion", on_delete=models.CASCADE, related_name="verdict_counts")
    task = models.ForeignKey("tasks.Task", on_delete=models.CASCADE, related_name="verdict_counts")
    toolchain = models.CharField(max_length=32)
    soc = models.CharField(max_length=32)
    verdict = models.CharField(max_length=32)
    compiled = models.BooleanField()
    count = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task_version", "toolchain", "soc", "verdict", "compiled"],
                                    name="task_verdict_count_key")
        ]

    def __str__(self) -> str:
        return f"{self.task_version_id} {self.toolchain}/{self.soc} {self.verdict}: {self.count}"


class RankedKernel(models.Model):
    """A correct public kernel with a speedup: the rows of task and people leaderboards."""

    evaluation = models.OneToOneField("submissions.Evaluation", on_delete=models.CASCADE, related_name="ranked")
    submission = models.ForeignKey("submissions.Submission", on_delete=models.CASCADE, related_name="+")
    task = models.ForeignKey("tasks.Task", on_delete=models.CASCADE, related_name="ranked_kernels")
    task_version = models.ForeignKey("tasks.TaskVersion", on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    run = models.ForeignKey("submissions.Run", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    toolchain = models.CharField(max_length=32)
    soc = models.CharField(max_length=32)
    speedup = models.FloatField()
    submitted_at = models.DateTimeField()
    #: The evaluator's record called it suspicious (bench_runner.contracts.SUSPICIOUS_SPEEDUP); a
    #: reviewer's Dismissal, not this column, says it was checked.
    flagged = models.BooleanField(default=False, help_text="Suspiciously fast, by the evaluator's record.")
    quarantined = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["task", "toolchain", "quarantined", "-speedup", "submitted_at"],
                         name="ranked_task_order"),
            # The people leaderboard reads only people's (run-less) rows.
            models.Index(fields=["author", "task"], condition=models.Q(run__isnull=True), name="ranked_people"),
        ]

    def __str__(self) -> str:
        return f"{self.speedup:.2f}x by submission {self.submission_id}"


class Dismissal(models.Model):
    """A reviewer looked at a flagged (suspiciously fast) result and let it stand.

    A human decision, so it lives in its own row: rebuilding the aggregates recomputes
    RankedKernel.flagged from the evaluator's record and never touches these.
    """

    submission = models.OneToOneField("submissions.Submission", on_delete=models.CASCADE, related_name="dismissal")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"dismissal of the flag on submission {self.submission_id}"


class Quarantine(models.Model):
    """A result hidden from every ranking by staff; kept, with its evidence, and shown to its owner."""

    submission = models.OneToOneField("submissions.Submission", on_delete=models.CASCADE, related_name="quarantine")
    reason = models.TextField()
    evidence = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"quarantine of submission {self.submission_id}"


class Report(models.Model):
    """Someone thinks a result is wrong (e.g. it games the checker); staff decide."""

    submission = models.ForeignKey("submissions.Submission", on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"report on submission {self.submission_id}"
