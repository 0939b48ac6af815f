"""Evaluation actors: one per toolchain queue, each taking only an evaluation id."""

from __future__ import annotations

import logging
import threading
import traceback

import dramatiq
from django.db import InterfaceError, OperationalError

from submissions.services import (
    QUEUES,
    evaluation_claim,
    evaluation_fail_infra,
    evaluation_finish,
    evaluation_set_stage,
    lease_keeper,
)
from workers.heartbeat import worker_name

logger = logging.getLogger(__name__)



def _database_hiccup(retries: int, exc: BaseException) -> bool:
    """Retry the message only while the database is unreachable (restart, failover).

    Every other failure is handled on the row: a user's compile error is a result, and an
    infrastructure failure is counted by evaluation_fail_infra and repaired by the reconciler.
    """
    return retries < 8 and isinstance(exc, (OperationalError, InterfaceError))


ACTOR_OPTIONS = {
    "retry_when": _database_hiccup,
    "min_backoff": 1_000,
    "max_backoff": 30_000,
    "time_limit": 20 * 60 * 1000,
}


def evaluation_process(evaluation_id: int) -> None:
    from submissions.judge import judge
    from submissions.models import Evaluation

    me = f"{worker_name()}/{threading.current_thread().name}"
    claim = evaluation_claim(evaluation_id=evaluation_id, worker=me)
    if claim is None:
        logger.info("evaluation %s is done or held by another worker; skipping", evaluation_id)
        return
    evaluation = Evaluation.objects.select_related("submission__task").get(pk=evaluation_id)
    with lease_keeper(claim):
        try:
            result = judge(evaluation, on_stage=lambda stage: evaluation_set_stage(claim, stage))
        except Exception as exc:
            logger.exception("evaluation %s failed in the infrastructure", evaluation_id)
            reason = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"
            evaluation_fail_infra(claim, reason)
            return
    if not evaluation_finish(claim, result):
        logger.warning("evaluation %s attempt %s lost its lease before finishing", evaluation_id, claim.attempt)


evaluate_cpu_sim = dramatiq.actor(
    evaluation_process, actor_name="evaluate_cpu_sim", queue_name=QUEUES["cpu-sim"], **ACTOR_OPTIONS
)
evaluate_cann = dramatiq.actor(
    evaluation_process, actor_name="evaluate_cann", queue_name=QUEUES["cann"], **ACTOR_OPTIONS
)

_ACTORS = {"cpu-sim": evaluate_cpu_sim, "cann": evaluate_cann}


def actor_for(toolchain: str) -> dramatiq.Actor:
    return _ACTORS[toolchain]
