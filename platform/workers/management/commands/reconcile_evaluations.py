"""`manage.py reconcile_evaluations [--loop SECONDS]`: repair lost messages and dead workers."""

from __future__ import annotations

import time
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.db import InterfaceError, OperationalError, close_old_connections, connections

from workers.reconcile import reconcile


class Command(BaseCommand):
    help = "Re-send evaluations queued too long and recover those whose worker stopped renewing its lease."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--loop", type=float, default=0, help="Repeat every N seconds (0: once).")
        parser.add_argument("--queued-for", type=float, default=120, help="Seconds before a queued row is re-sent.")

    def handle(self, *args, loop: float, queued_for: float, **options) -> None:
        while True:
            try:
                count = reconcile(queued_for=timedelta(seconds=queued_for))
                self.stdout.write(f"re-sent {count} evaluation(s)")
            except (OperationalError, InterfaceError, ConnectionError) as exc:
                if not loop:
                    raise CommandError(f"reconciler could not reach a service: {exc}") from exc
                # The database or broker is restarting: try again on the next pass.
                self.stderr.write(f"reconciler pass failed, retrying: {exc}")
            finally:
                close_old_connections()
                connections.close_all()
            if not loop:
                return
            time.sleep(loop)
