"""Read-side queries for tasks."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from tasks.models import Task


def task_list(*, level: int | None = None) -> QuerySet[Task]:
    qs = Task.objects.filter(retired=False)
    if level is not None:
        qs = qs.filter(level=level)
    return qs


def suite_summary() -> dict:
    """Task counts per level for the landing page."""
    rows = task_list().values("level").annotate(n=Count("id")).order_by("level")
    per_level = {row["level"]: row["n"] for row in rows}
    return {"total": sum(per_level.values()), "per_level": per_level}
