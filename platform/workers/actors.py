"""Actors of the workers app. Evaluation actors live in submissions.actors."""

from __future__ import annotations

import dramatiq
from django.utils import timezone

from workers.heartbeat import beat, worker_name
from workers.models import WorkerHeartbeat

PROBE_QUEUE = "probe"


@dramatiq.actor(queue_name=PROBE_QUEUE, max_retries=0, time_limit=30_000)
def probe(token: str) -> None:
    """Answer a probe so an operator can see which host consumes a queue (manage.py probe_worker)."""
    name = worker_name()
    if not WorkerHeartbeat.objects.filter(name=name).exists():
        beat(name=name, queues=[], embedded=False)
    WorkerHeartbeat.objects.filter(name=name).update(last_probe=token, last_probe_at=timezone.now())
