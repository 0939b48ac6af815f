"""`manage.py sync_tasks`: load the task suite from bench_runner/suites into the database."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tasks.services import task_sync_from_suite


class Command(BaseCommand):
    help = "Mirror the task suite on disk into the database (new content makes a new version)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--suite-dir", type=Path, default=None,
                            help="Suite folder (default: AKGEN_SUITE_DIR or the packaged npukb suite).")
        parser.add_argument("--strict", action="store_true", help="Fail if any task is malformed.")

    def handle(self, *args, suite_dir: Path | None, strict: bool, **options) -> None:
        report = task_sync_from_suite(root=suite_dir)
        for error in report.errors:
            self.stderr.write(f"skipped malformed task: {error}")
        total = len(report.created) + len(report.updated) + len(report.unchanged)
        self.stdout.write(
            f"Tasks: {total} in suite ({len(report.created)} new, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.retired)} retired)"
        )
        if strict and report.errors:
            raise CommandError(f"{len(report.errors)} malformed task(s)")
