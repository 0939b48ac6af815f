"""Factories for the platform tests (plain functions; the models are small)."""

from __future__ import annotations

from tasks.models import Task, TaskVersion


def make_task(slug: str = "add", *, level: int = 1, paths=("device_only", "host_device")) -> Task:
    task = Task.objects.create(
        slug=slug, title=slug.title(), level=level, category="elementwise", shape_mode="static",
        dtypes=["float16"], paths=list(paths),
    )
    version = TaskVersion.objects.create(
        task=task, content_hash=f"{slug}-v1".ljust(64, "0"), spec={"slug": slug}, api_desc=f"# {slug}",
        template_kernel="// template\n",
    )
    task.current_version = version
    task.save()
    return task

