"""`manage.py serve`: the web site plus, in embedded mode, an in-process evaluation worker."""

from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the site; in embedded mode (no BROKER_URL) also run an evaluation worker in-process."

    def add_arguments(self, parser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--worker-threads", type=int, default=2)

    def handle(self, *args, addrport: str, worker_threads: int, **options) -> None:
        worker = None
        if settings.AKGEN_EMBEDDED_WORKER:
            from workers.embedded import start_embedded_worker

            worker = start_embedded_worker(threads=worker_threads)
            self.stdout.write(f"In-process worker: {worker_threads} threads (embedded mode).")
            self._recover_lost_messages()
        try:
            call_command("runserver", addrport, use_reloader=False)
        finally:
            if worker is not None:
                worker.stop(timeout=5000)

    def _recover_lost_messages(self) -> None:
        """The in-memory broker forgets messages on restart; the database remembers."""
        try:
            from submissions.reconcile import reconcile
        except ImportError:  # no submissions pipeline yet
            return
        resent = reconcile()
        if resent:
            self.stdout.write(f"Re-sent {resent} evaluation(s) left queued by the last run.")
