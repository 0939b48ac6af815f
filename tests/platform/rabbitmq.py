"""Emptying RabbitMQ queues from a test, robust to a broker restarted by an earlier test."""

from __future__ import annotations

import contextlib

import dramatiq
from pika.exceptions import AMQPError, ChannelWrongStateError, ConnectionWrongStateError


def purge_queues(*names: str) -> None:
    """Declare (on the server too) and empty each queue; reconnect once if the cached connection
    died (test_faults restarts RabbitMQ, leaving this process's connection stale)."""
    broker = dramatiq.get_broker()
    for attempt in (1, 2):
        try:
            for name in names:
                broker.declare_queue(name, ensure=True)
                broker.channel.queue_purge(name)
            return
        except (AMQPError, ChannelWrongStateError, ConnectionWrongStateError):
            if attempt == 2:
                raise
            # Drop this thread's cached channel and connection: the next use opens fresh ones.
            for name in ("channel", "connection"):
                with contextlib.suppress(Exception):
                    delattr(broker, name)
