"""`manage.py sync_tasks`: load the task suite from bench_runner/suites into the database."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tasks.services import task_sync_from_suite
from tasks.suites import DEFAULT_SUITE, UnknownSuite


class Command(BaseCommand):
    help = "Mirror the task suite on disk into the database (new content makes a new version)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--suite-dir", type=Path, default=None,
                            help="Suite folder (default: AKGEN_SUITE_DIR or the packaged npukb suite).")
        parser.add_argument("--suite", default=DEFAULT_SUITE,
                            help="Suite name (default: akgen). Another suite, e.g. one made by `akgen suite "
                                 "import-npukb`, needs its folder in AKGEN_SUITES (name=/path) on every host.")
        parser.add_argument("--strict", action="store_true", help="Fail if any task is malformed.")

    def handle(self, *args, suite_dir: Path | None, suite: str, strict: bool, **options) -> None:
        try:
            report = task_sync_from_suite(root=suite_dir, suite_name=suite)
        except UnknownSuite as exc:
            raise CommandError(str(exc)) from None
        for error in report.errors:
            self.stderr.write(f"skipped malformed task: {error}")
        total = len(report.created) + len(report.updated) + len(report.unchanged)
        self.stdout.write(
            f"Tasks: {total} in suite {suite} ({len(report.created)} new, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.retired)} retired)"
        )
        if strict and report.errors:
            raise CommandError(f"{len(report.errors)} malformed task(s)")
