"""Read-side queries for tasks: the filtered list and its options, and the landing page's
summary. Results (counts, best speedups) are the leaderboard's: leaderboard.task_stats."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from bench_runner.contracts import MAX_SOURCE_BYTES
from tasks.models import Level, Task


def task_list(
    *,
    level: int | None = None,
    category: str | None = None,
    shape_mode: str | None = None,
    dtype: str | None = None,
    q: str | None = None,
    suite: str | None = None,
) -> QuerySet[Task]:
    """Tasks in the suite, filtered (results and ordering are added by leaderboard.task_views)."""
    qs = Task.objects.filter(retired=False)
    if suite:
        qs = qs.filter(suite=suite)
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
    return qs


@dataclass(frozen=True, slots=True)
class FilterOptions:
    levels: list[tuple[int, str]]
    categories: list[str]
    shape_modes: list[str]
    dtypes: list[str]
    suites: list[str]


def task_filter_options() -> FilterOptions:
    """The values the list's filters offer: only those some task in the suite has."""
    rows = list(Task.objects.filter(retired=False).values_list("category", "shape_mode", "dtypes", "suite"))
    dtypes = sorted({d for _, _, names, _ in rows for d in (names or []) if isinstance(d, str)})
    return FilterOptions(
        levels=list(Level.choices),
        categories=sorted({c for c, _, _, _ in rows}),
        shape_modes=sorted({s for _, s, _, _ in rows}),
        dtypes=dtypes,
        suites=sorted({s for _, _, _, s in rows}),
    )


def suite_summary() -> dict:
    """Task counts per level for the landing page."""
    rows = Task.objects.filter(retired=False).values("level").annotate(n=Count("id")).order_by("level")
    per_level = {row["level"]: row["n"] for row in rows}
    return {"total": sum(per_level.values()), "per_level": per_level}


def source_limit(task: Task) -> int:
    """The largest kernel or host source the task's current version accepts (bench_runner's
    ``Task.source_limit``, stored in its spec by sync_tasks; 64 KiB for a spec without it)."""
    spec = task.current_version.spec if task.current_version is not None else {}
    value = spec.get("source_bytes") if isinstance(spec, dict) else None
    return int(value) if isinstance(value, int) and value > 0 else MAX_SOURCE_BYTES
