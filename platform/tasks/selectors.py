"""Read-side queries for tasks: the filtered list (with the result counters kept on each task's
current version) and its options, and the landing page's summary. A task page's own results
come from leaderboard.task_stats and leaderboard.selectors."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet, Value
from django.db.models.functions import Coalesce

from tasks.models import Level, Task

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
