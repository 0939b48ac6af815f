"""The release builder's actor, on a queue of its own so long builds never hold up evaluations.

A worker host serves it with ``manage.py rundramatiq --queues releases``; the embedded worker
of ``manage.py serve`` consumes every queue, this one included.
"""

from __future__ import annotations

import dramatiq

from releases.services import BUILD_ACTOR, QUEUE, release_build

__all__ = ["QUEUE", "build_release"]


@dramatiq.actor(actor_name=BUILD_ACTOR, queue_name=QUEUE, max_retries=0, time_limit=60 * 60 * 1000)
def build_release(release_id: int) -> None:
    release_build(release_id)
