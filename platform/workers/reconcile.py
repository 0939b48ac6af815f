"""The reconciler loop: run by `serve` in embedded mode and by `manage.py reconcile_evaluations`."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.db import close_old_connections, connection

from bench_runner import sandbox
from workers.pipeline import reconcile_stuck

logger = logging.getLogger(__name__)


def reconcile(*, queued_for: timedelta = timedelta(minutes=2)) -> int:
    """Repair lost messages and dead workers' rows (the count re-sent), and remove the job
    directories of evaluator processes that died without cleaning up (kill -9, OOM killer)."""
    remove_dead_job_dirs()
    return reconcile_stuck(queued_for=queued_for)


def remove_dead_job_dirs() -> int:
    """Job directories on this host whose owning process is gone: removed; how many.

    Only this host's scratch root is seen (each worker host's own reconciler pass, or its next
    evaluation, cleans its own). A failure here never stops the reconciler's database repairs.
    """
    try:
        removed = sandbox.remove_stale_job_dirs()
    except Exception:
        logger.warning("could not remove stale job directories", exc_info=True)
        return 0
    if removed:
        logger.info("removed %d job directories of dead evaluator processes", len(removed))
    return len(removed)


class ReconcilerThread(threading.Thread):
    def __init__(self, *, every_s: float = 30.0) -> None:
        super().__init__(name="akgen-reconciler", daemon=True)
        self.every_s = every_s
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self.every_s):
            try:
                close_old_connections()
                resent = reconcile()
                if resent:
                    logger.info("reconciler re-sent %d evaluation(s)", resent)
            except Exception:
                logger.warning("reconciler pass failed", exc_info=True)
            finally:
                connection.close()

    def stop(self) -> None:
        self._stop_event.set()
