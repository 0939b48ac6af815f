"""Recompute every leaderboard aggregate from the evaluations (after an upgrade, a bulk load or a
manual fix); the numbers equal what incremental counting gives."""

import time

from django.core.management.base import BaseCommand

from leaderboard.aggregates import Scope, rebuild


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("--run", type=int, action="append", help="only this run (repeatable)")

    def handle(self, *args, run=None, **options):
        start = time.perf_counter()
        counts = rebuild(Scope(run_ids=tuple(run)) if run else None)
        took = time.perf_counter() - start
        self.stdout.write(f"Rebuilt in {took:.2f} s: {counts['run_task_stats']} run×task rows, "
                          f"{counts['failure_counts']} failure counts, {counts['task_verdict_counts']} task "
                          f"verdict counts, {counts['ranked_kernels']} ranked kernels.")
