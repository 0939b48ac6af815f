"""`manage.py serve`: the web site plus, in embedded mode, an in-process evaluation worker."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections

from releases.services import release_resend_unfinished
from workers.embedded import start_embedded_worker
from workers.reconcile import ReconcilerThread, reconcile


class Command(BaseCommand):
    help = "Serve the site; in embedded mode (no BROKER_URL) also run an evaluation worker in-process."

    def add_arguments(self, parser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--worker-threads", type=int, default=2)

    def handle(self, *args, addrport: str, worker_threads: int, **options) -> None:
        worker = reconciler = None
        if settings.AKGEN_EMBEDDED_WORKER:
            worker = start_embedded_worker(threads=worker_threads)
            self.stdout.write(f"In-process worker: {worker_threads} threads (embedded mode).")
            # The in-memory broker forgot the last run's messages; the database did not.
            resent = reconcile(queued_for=timedelta(0))
            if resent:
                self.stdout.write(f"Re-sent {resent} evaluation(s) left unfinished by the last run.")
            if releases := release_resend_unfinished():
                self.stdout.write(f"Re-sent {releases} release build(s) left unfinished by the last run.")
            reconciler = ReconcilerThread()
            reconciler.start()
        # runserver answers each request in a thread of its own; a persistent connection left by a
        # finished thread is never reused nor closed, so on PostgreSQL every request would leak one.
        connections.settings[DEFAULT_DB_ALIAS]["CONN_MAX_AGE"] = 0
        try:
            call_command("runserver", addrport, use_reloader=False)
        finally:
            if reconciler is not None:
                reconciler.stop()
            if worker is not None:
                worker.stop(timeout=5000)
