"""The reconciler loop: run by `serve` in embedded mode and by `manage.py reconcile_evaluations`."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.db import close_old_connections, connection

from workers.pipeline import reconcile_stuck

logger = logging.getLogger(__name__)


def reconcile(*, queued_for: timedelta = timedelta(minutes=2)) -> int:
    return reconcile_stuck(queued_for=queued_for)


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
