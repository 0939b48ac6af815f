"""A task's results: the counters kept on each TaskVersion for the task list (judged, passed,
best public cpu-sim speedup), written as evaluations finish and rebuilt from them, and the task
page's summary.

Result statistics count evaluations on a task's *current* version (results stay attached to the
version they were judged on); counts include private submissions, while the best speedup comes
from public ones only. The ranked entries of a task page come from leaderboard.selectors.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, F, Max, Q, Sum, Value
from django.db.models.functions import Coalesce, Greatest

from submissions.models import EvalStatus, Evaluation, Visibility
from tasks.models import Task, TaskVersion

#: Speedups are only comparable within one toolchain; the list ranks this one.
RANKED_TOOLCHAIN = "cpu-sim"


def task_stats_record(*, task_version_id: int, passed: bool, speedup: float | None, ranked: bool) -> None:
    """Count one finished evaluation on its task version (call inside the finishing transaction)."""
    changes = {"judged_count": F("judged_count") + 1}
    if passed:
        changes["passed_count"] = F("passed_count") + 1
        if ranked and speedup is not None:
            changes["best_speedup"] = Greatest(Coalesce(F("best_speedup"), Value(speedup)), Value(speedup))
    TaskVersion.objects.filter(pk=task_version_id).update(**changes)


def task_stats_rebuild(*, task_version_ids: list[int] | None = None) -> int:
    """Recompute the counters from the evaluations (after bulk loads or manual fixes)."""
    versions = TaskVersion.objects.all()
    if task_version_ids is not None:
        versions = versions.filter(pk__in=task_version_ids)
    done = Evaluation.objects.filter(status=EvalStatus.DONE)
    rows = done.values("submission__task_version").annotate(
        n_judged=Count("pk"),
        n_passed=Count("pk", filter=Q(passed=True)),
        best=Max("speedup", filter=Q(passed=True, toolchain=RANKED_TOOLCHAIN,
                                     submission__visibility=Visibility.PUBLIC,
                                     submission__quarantine__isnull=True)),  # staff-hidden results
    )
    stats = {row["submission__task_version"]: row for row in rows}
    count = 0
    with transaction.atomic():
        for version in versions.select_for_update().only("pk"):
            row = stats.get(version.pk, {})
            TaskVersion.objects.filter(pk=version.pk).update(
                judged_count=row.get("n_judged", 0), passed_count=row.get("n_passed", 0),
                best_speedup=row.get("best"),
            )
            count += 1
    return count


# --- the task page -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToolchainStats:
    toolchain: str
    soc: str
    judged: int
    compiled: int
    passed: int
    best_speedup: float | None
    submitters: int


@dataclass(frozen=True, slots=True)
class TaskStats:
    per_toolchain: list[ToolchainStats]
    verdicts: list[tuple[str, int]]
    pending: int
    earlier_versions: int

    @property
    def judged(self) -> int:
        return sum(t.judged for t in self.per_toolchain)

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.per_toolchain)


def task_stats(task: Task) -> TaskStats:
    """The task page's result summary: counts per toolchain, verdict mix, what is still pending."""
    evaluations = Evaluation.objects.filter(submission__task=task,
                                            submission__task_version_id=task.current_version_id)
    done = evaluations.filter(status=EvalStatus.DONE)
    per_toolchain = [
        ToolchainStats(
            toolchain=row["toolchain"], soc=row["soc"], judged=row["n_judged"], compiled=row["n_compiled"],
            passed=row["n_passed"], best_speedup=row["best"], submitters=row["n_submitters"],
        )
        for row in done.order_by("toolchain", "soc").values("toolchain", "soc").annotate(
            n_judged=Count("pk"),
            n_compiled=Count("pk", filter=Q(compiled=True)),
            n_passed=Count("pk", filter=Q(passed=True)),
            best=Max("speedup", filter=Q(passed=True, submission__visibility=Visibility.PUBLIC)),
            n_submitters=Count("submission__author", distinct=True) + Count("submission__run", distinct=True),
        )
    ]
    verdicts = [
        (row["verdict"], row["n"])
        for row in done.exclude(verdict="").values("verdict").annotate(n=Count("pk")).order_by("-n", "verdict")
    ]
    pending = evaluations.filter(status__in=[EvalStatus.QUEUED, EvalStatus.RUNNING]).count()
    # Earlier versions' counters are kept by evaluation_finish; no need to scan their evaluations.
    earlier = (TaskVersion.objects.filter(task=task).exclude(pk=task.current_version_id)
               .aggregate(n=Sum("judged_count"))["n"] or 0)
    return TaskStats(per_toolchain, verdicts, pending, earlier)
