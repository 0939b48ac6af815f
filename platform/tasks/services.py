"""Write-side operations on tasks: mirroring the suite on disk into the database."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from django.db import DatabaseError, transaction

from bench_runner.tasks import STATIC_SUFFIX, load_suite
from bench_runner.tasks import Task as SuiteTask
from tasks.models import Task, TaskVersion
from tasks.suites import DEFAULT_SUITE, UnknownSuite, suite_root, valid_name


@dataclass
class SyncReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _read(path: Path | None) -> str:
    return path.read_text(encoding="utf-8") if path is not None and path.is_file() else ""


def _json_safe(value):
    """JSON has no Infinity/NaN (PostgreSQL rejects them): spell them as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def _dtypes(task: SuiteTask) -> list[str]:
    names = [t.dtype.name for t in (*task.inputs, *task.outputs)]
    return sorted(set(names))


@transaction.atomic
def _sync_one(task: SuiteTask, report: SyncReport, suite_name: str = DEFAULT_SUITE) -> None:
    row, created = Task.objects.select_for_update().get_or_create(
        slug=task.slug,
        defaults={"title": task.title, "level": task.level, "category": task.category,
                  "shape_mode": task.shape_mode, "suite": suite_name},
    )
    if row.suite != suite_name:
        report.errors.append(f"{task.slug}: already a task of suite {row.suite!r}; a slug belongs to one suite "
                             "(rename the task folder)")
        return
    version, new_version = TaskVersion.objects.get_or_create(
        task=row,
        content_hash=task.version,
        defaults={
            "spec": _json_safe(task.summary()),
            "api_desc": task.api_desc,
            "template_kernel": _read(task.template_kernel),
            "template_host": _read(task.host_template),
            "expert_kernel": _read(task.expert_kernel),
            "expert_host": _read(task.expert_host),
        },
    )
    row.title = task.title
    row.level = task.level
    row.category = task.category
    row.shape_mode = task.shape_mode
    row.dtypes = _dtypes(task)
    row.paths = list(task.paths)
    row.retired = False
    changed = row.current_version_id != version.id
    row.current_version = version
    row.save()
    if created:
        report.created.append(task.slug)
    elif changed or new_version:
        report.updated.append(task.slug)
    else:
        report.unchanged.append(task.slug)


def task_sync_from_suite(*, root: Path | None = None, suite_name: str = DEFAULT_SUITE) -> SyncReport:
    """Mirror a suite folder into the database as suite ``suite_name``; old versions stay so old
    results stay readable.

    A malformed task is reported and skipped, never half-imported; tasks of this suite that left
    its folder are marked retired rather than deleted, because submissions point at them; the
    other suites' tasks are left alone. ``root`` defaults to the suite's folder (tasks/suites.py).
    """
    if not valid_name(suite_name):
        raise UnknownSuite(f"suite name {suite_name!r}: lower-case letters, digits, '_' or '-'")
    report = SyncReport()
    suite = load_suite(root if root is not None else suite_root(suite_name))
    report.errors = [str(err) for err in suite.errors]
    for task in suite.tasks:
        try:
            _sync_one(task, report, suite_name)
        except DatabaseError as exc:  # one bad task must not stop the others
            report.errors.append(f"{task.slug}: could not be stored: {exc}")
    on_disk = {t.slug for t in suite.tasks}
    broken = {Path(getattr(err, "file", "")).parent.name for err in suite.errors}
    broken |= {slug + STATIC_SUFFIX for slug in broken}  # a broken folder's variant is kept as it was
    stale = Task.objects.filter(retired=False, suite=suite_name).exclude(slug__in=on_disk | broken)
    report.retired = list(stale.values_list("slug", flat=True))
    stale.update(retired=True)
    return report
