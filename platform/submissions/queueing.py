"""Handing evaluations to the workers: one queue per toolchain, each message only an id.

Messages name their actor instead of importing it, so the web side never loads worker code:
workers.actors declares an actor per toolchain under these names and queues. The database is
the source of truth; a message that could not be sent is re-sent by the reconciler.
"""

from __future__ import annotations

import logging

from core.messages import message_send
from submissions.models import Evaluation

logger = logging.getLogger(__name__)

#: toolchain → the queue its evaluations go to (a worker host consumes the queues it can serve).
QUEUES = {"cpu-sim": "eval.cpu-sim", "cann": "eval.cann-910b"}
#: toolchain → the name of the actor that judges its evaluations (declared in workers.actors).
ACTORS = {"cpu-sim": "evaluate_cpu_sim", "cann": "evaluate_cann"}


def evaluation_send(evaluation: Evaluation) -> None:
    """Hand an evaluation id to its toolchain's queue. Failure to send is repaired by the reconciler."""
    try:
        message_send(actor_name=ACTORS[evaluation.toolchain], queue_name=QUEUES[evaluation.toolchain],
                     args=(evaluation.pk,))
    except Exception:
        logger.warning("could not send evaluation %s; the reconciler will retry", evaluation.pk, exc_info=True)
