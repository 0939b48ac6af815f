"""Read-side queries for tasks: the filtered list, its options, and per-task result summaries.

Result statistics count evaluations on a task's *current* version (results stay attached to the
version they were judged on); counts include private submissions, while the best speedup comes
from public ones only. The ranked entries of a task page come from leaderboard.selectors.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Max, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce

from submissions.models import EvalStatus, Evaluation, Visibility
from tasks.models import Level, Task, TaskVersion

#: Speedups are only comparable within one toolchain; the list shows this one.
DEFAULT_TOOLCHAIN = "cpu-sim"

#: ?sort= values of the task list, each with its ordering.
SORTS: dict[str, tuple[str, ...]] = {
    "level": ("level", "slug"),
    "-level": ("-level", "slug"),
    "title": ("title",),
    "-title": ("-title",),
    "judged": ("n_judged", "level", "slug"),
    "-judged": ("-n_judged", "level", "slug"),
    "passed": ("n_passed", "level", "slug"),
    "-passed": ("-n_passed", "level", "slug"),
    "speedup": ("best_speedup", "level", "slug"),
    "-speedup": ("-best_speedup", "level", "slug"),
}


def task_list(
    *,
    level: int | None = None,
    category: str | None = None,
    shape_mode: str | None = None,
    dtype: str | None = None,
    q: str | None = None,
    sort: str = "level",
) -> QuerySet[Task]:
    """Tasks in the suite, filtered, with result counts annotated (one query, no N+1)."""
    qs = Task.objects.filter(retired=False)
    if level is not None:
        qs = qs.filter(level=level)
    if category:
        qs = qs.filter(category=category)
    if shape_mode:
        qs = qs.filter(shape_mode=shape_mode)
    if dtype:
        # A JSON list of names; matching the quoted name works on PostgreSQL and SQLite alike.
        qs = qs.filter(dtypes__icontains=f'"{dtype}"')
    if q:
        qs = qs.filter(Q(title__icontains=q) | Q(slug__icontains=q) | Q(category__icontains=q))
    qs = _with_stats(qs)
    ordering = SORTS.get(sort, SORTS["level"])
    return qs.order_by(*[_nulls_last(field) for field in ordering])


def _nulls_last(field: str):
    if field.startswith("-"):
        return F(field[1:]).desc(nulls_last=True)
    return F(field).asc(nulls_last=True)


def _with_stats(qs: QuerySet[Task]) -> QuerySet[Task]:
    """Counters kept on the current version by evaluation_finish: no per-request aggregation."""
    return qs.annotate(
        n_judged=Coalesce(F("current_version__judged_count"), Value(0)),
        n_passed=Coalesce(F("current_version__passed_count"), Value(0)),
        best_speedup=F("current_version__best_speedup"),
    )


@dataclass(frozen=True, slots=True)
class FilterOptions:
    levels: list[tuple[int, str]]
    categories: list[str]
    shape_modes: list[str]
    dtypes: list[str]


def task_filter_options() -> FilterOptions:
    """The values the list's filters offer: only those some task in the suite has."""
    rows = list(Task.objects.filter(retired=False).values_list("category", "shape_mode", "dtypes"))
    dtypes = sorted({d for _, _, names in rows for d in (names or []) if isinstance(d, str)})
    return FilterOptions(
        levels=list(Level.choices),
        categories=sorted({c for c, _, _ in rows}),
        shape_modes=sorted({s for _, s, _ in rows}),
        dtypes=dtypes,
    )


def suite_summary() -> dict:
    """Task counts per level for the landing page."""
    rows = Task.objects.filter(retired=False).values("level").annotate(n=Count("id")).order_by("level")
    per_level = {row["level"]: row["n"] for row in rows}
    return {"total": sum(per_level.values()), "per_level": per_level}


# --- one task ---------------------------------------------------------------------------------


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
