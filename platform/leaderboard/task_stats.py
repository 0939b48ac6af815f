"""A task's results as the task list and the task page show them, read from the aggregates.

Counts come from TaskVerdictCount (a few rows per task version), the best speedup from the top of
the task's ranked kernels — the same row the task board shows first — so the list, the page, the
board and the API agree by construction, quarantine included, and no view scans evaluations.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import IntegerField, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from leaderboard.aggregates import UNJUDGED_VERDICT
from leaderboard.models import RankedKernel, TaskVerdictCount
from submissions.models import PENDING_STATUSES, Evaluation
from tasks.models import Task

#: Speedups are only comparable within one toolchain; the task list ranks this one.
RANKED_TOOLCHAIN = "cpu-sim"
PASSED = "passed"


#: A ranked kernel the boards may show: not flagged, or a reviewer dismissed the flag.
VOUCHED = Q(flagged=False) | Q(submission__dismissal__isnull=False)


def best_kernels(task_ids=None, *, toolchain: str = RANKED_TOOLCHAIN) -> QuerySet[RankedKernel]:
    """Ranked kernels in board order (fastest first, ties to the earlier submission); a flagged
    one waits for review (the review page lists it) before it ranks anywhere."""
    rows = RankedKernel.objects.filter(VOUCHED, toolchain=toolchain, quarantined=False)
    if task_ids is not None:
        rows = rows.filter(task_id__in=task_ids)
    return rows.order_by("-speedup", "submitted_at", "pk")


def _count_of(version_ref: str, toolchain: str | None, **filters) -> Coalesce:
    rows = TaskVerdictCount.objects.filter(task_version=OuterRef(version_ref), **filters)
    if toolchain is not None:
        rows = rows.filter(toolchain=toolchain)
    total = rows.values("task_version").annotate(n=Sum("count")).values("n")[:1]
    return Coalesce(Subquery(total, output_field=IntegerField()), Value(0))


def with_task_counts(qs: QuerySet[Task]) -> QuerySet[Task]:
    """Annotate n_judged, n_passed (current version, every toolchain) and best_speedup (ranked
    toolchain, every version: the task board's top)."""
    return qs.annotate(
        n_judged=_count_of("current_version", None) - _count_of("current_version", None, verdict=UNJUDGED_VERDICT),
        n_passed=_count_of("current_version", None, verdict=PASSED),
        best_speedup=Subquery(best_kernels().filter(task=OuterRef("pk")).values("speedup")[:1]),
    )


@dataclass(frozen=True, slots=True)
class ToolchainStats:
    toolchain: str
    soc: str
    judged: int
    compiled: int
    passed: int
    unjudged: int
    best_speedup: float | None


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

    @property
    def unjudged(self) -> int:
        return sum(t.unjudged for t in self.per_toolchain)


def task_stats(task: Task) -> TaskStats:
    """The task page's summary: counts of the current version per target, the verdict mix, what is
    pending, and per toolchain the task board's best speedup (every version, like the board)."""
    per: dict[tuple[str, str], dict[str, int]] = {}
    verdicts: dict[str, int] = {}
    earlier = 0
    rows = TaskVerdictCount.objects.filter(task=task).values_list("task_version_id", "toolchain", "soc", "verdict",
                                                                   "compiled", "count")
    for version_id, toolchain, soc, verdict, compiled, n in rows:
        judged = verdict != UNJUDGED_VERDICT
        if version_id != task.current_version_id:
            earlier += n if judged else 0
            continue
        acc = per.setdefault((toolchain, soc), {"judged": 0, "compiled": 0, "passed": 0, "unjudged": 0})
        if not judged:
            acc["unjudged"] += n
            continue
        acc["judged"] += n
        acc["compiled"] += n if compiled else 0
        acc["passed"] += n if verdict == PASSED else 0
        verdicts[verdict] = verdicts.get(verdict, 0) + n
    best = {}
    for toolchain in {t for t, _ in per}:
        top = best_kernels([task.pk], toolchain=toolchain).first()  # the task board's first row
        best[toolchain] = top.speedup if top else None
    per_toolchain = [ToolchainStats(t, s, v["judged"], v["compiled"], v["passed"], v["unjudged"], best.get(t))
                     for (t, s), v in sorted(per.items())]
    pending = (Evaluation.objects.filter(status__in=PENDING_STATUSES, submission__task=task,
                                         submission__task_version_id=task.current_version_id).count())
    mix = sorted(verdicts.items(), key=lambda kv: (-kv[1], kv[0]))
    return TaskStats(per_toolchain, mix, pending, earlier)


__all__ = ["RANKED_TOOLCHAIN", "TaskStats", "ToolchainStats", "best_kernels", "task_stats", "with_task_counts"]
