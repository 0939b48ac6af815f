"""The in-process worker of embedded mode: a newcomer gets evaluations without a broker."""

from __future__ import annotations

import logging

import dramatiq
from django.conf import settings
from django.utils.module_loading import autodiscover_modules
from dramatiq import Worker

logger = logging.getLogger(__name__)


def start_embedded_worker(*, threads: int = 2) -> Worker:
    """Start a dramatiq worker on the current broker inside this process.

    Only meaningful with the stub broker: its queues live in this process's memory, so a
    message sent by a view is picked up by these threads. Lost messages on restart are
    recovered by the reconciler from the database, which is the source of truth.

    Like rundramatiq, it first imports every app's actors module (DRAMATIQ_AUTODISCOVER_MODULES):
    senders name actors, they never import them, so this is where the actors get declared.
    """
    autodiscover_modules(*settings.DRAMATIQ_AUTODISCOVER_MODULES)
    broker = dramatiq.get_broker()
    worker = Worker(broker, worker_threads=threads, worker_timeout=100)
    worker.start()
    logger.info("embedded worker started with %d threads on %s", threads, type(broker).__name__)
    return worker
