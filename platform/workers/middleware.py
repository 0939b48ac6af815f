"""Dramatiq middleware that starts a heartbeat thread in every worker process."""

from __future__ import annotations

import dramatiq
from django.conf import settings


class HeartbeatMiddleware(dramatiq.Middleware):
    def __init__(self) -> None:
        self._thread = None

    def after_worker_boot(self, broker, worker) -> None:
        # Imported here, not at the top: django_dramatiq builds this middleware while Django is
        # still loading its apps, when the heartbeat's model cannot be imported yet.
        from workers.heartbeat import HeartbeatThread

        queues = worker.consumer_whitelist or broker.get_declared_queues()
        self._thread = HeartbeatThread(
            queues=queues, embedded=settings.AKGEN_EMBEDDED_WORKER and not settings.BROKER_URL
        )
        self._thread.start()

    def before_worker_shutdown(self, broker, worker) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
