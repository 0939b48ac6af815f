"""Worker heartbeats: a background thread per worker process that keeps its row fresh."""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from workers.models import WorkerHeartbeat

logger = logging.getLogger(__name__)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def beat(*, name: str, queues: Iterable[str], embedded: bool) -> None:
    """Record that this worker is alive now."""
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(
        name=name,
        defaults={
            "hostname": socket.gethostname(),
            "pid": os.getpid(),
            "queues": sorted(queues),
            "embedded": embedded,
            "last_seen": now,
            "stopped_at": None,
        },
        create_defaults={
            "hostname": socket.gethostname(),
            "pid": os.getpid(),
            "queues": sorted(queues),
            "embedded": embedded,
            "started_at": now,
            "last_seen": now,
        },
    )


def mark_stopped(name: str) -> None:
    WorkerHeartbeat.objects.filter(name=name).update(stopped_at=timezone.now())


def alive_cutoff():
    """Rows older than three missed beats count as dead."""
    return timezone.now() - timedelta(seconds=3 * settings.AKGEN_WORKER_HEARTBEAT_S)


class HeartbeatThread(threading.Thread):
    """Beats every AKGEN_WORKER_HEARTBEAT_S seconds until stopped."""

    def __init__(self, *, queues: Iterable[str], embedded: bool) -> None:
        super().__init__(name="akgen-heartbeat", daemon=True)
        self.queues = list(queues)
        self.embedded = embedded
        self.name_ = worker_name()
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            try:
                close_old_connections()
                beat(name=self.name_, queues=self.queues, embedded=self.embedded)
            except Exception:  # the database may be restarting; try again next beat
                logger.warning("worker heartbeat failed", exc_info=True)
            finally:
                connection.close()
            self._stop_event.wait(settings.AKGEN_WORKER_HEARTBEAT_S)

    def stop(self) -> None:
        self._stop_event.set()
        try:
            mark_stopped(self.name_)
        except Exception:
            logger.warning("could not mark worker stopped", exc_info=True)
        finally:
            connection.close()
