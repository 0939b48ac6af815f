"""Sending a message to an actor by its name, so the sending side never imports worker code.

Actors are declared by the worker bootstrap (``rundramatiq``'s discovery of each app's
``actors`` module, or ``workers.embedded``); a web process only needs the names. Where this
process has declared the actor (a worker, or a test that routes it to a queue of its own), the
message goes to that actor's queue; otherwise to ``queue_name``, the one the actor is declared on.
"""

from __future__ import annotations

import contextlib

import dramatiq
from dramatiq.errors import ActorNotFound


def message_send(*, actor_name: str, queue_name: str, args: tuple = ()) -> dramatiq.Message:
    """Enqueue ``actor_name(*args)``; raises the broker's error if it cannot be sent."""
    broker = dramatiq.get_broker()
    with contextlib.suppress(ActorNotFound):
        queue_name = broker.get_actor(actor_name).queue_name
    broker.declare_queue(queue_name)  # idempotent; the in-memory broker refuses unknown queues
    message = dramatiq.Message(queue_name=queue_name, actor_name=actor_name, args=args, kwargs={}, options={})
    return broker.enqueue(message)
