"""Operations on workers that views and commands share."""

from __future__ import annotations

import secrets
import time

import dramatiq

from workers.actors import probe
from workers.models import WorkerHeartbeat


class ProbeTimeout(Exception):
    """No worker answered the probe in time: none consumes that queue, or the broker is down."""


def probe_send(*, queue: str) -> str:
    """Send a probe message to `queue` and return its token."""
    token = secrets.token_hex(8)
    broker = dramatiq.get_broker()
    broker.declare_queue(queue)
    message = probe.message(token).copy(queue_name=queue)
    broker.enqueue(message)
    return token


def probe_wait(*, token: str, timeout_s: float = 10.0) -> WorkerHeartbeat:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        row = WorkerHeartbeat.objects.filter(last_probe=token).first()
        if row is not None:
            return row
        time.sleep(0.1)
    raise ProbeTimeout(
        f"no worker answered within {timeout_s:.0f}s: start one with "
        "'manage.py rundramatiq --queues <queue>' and check BROKER_URL"
    )
