"""The actors a worker host runs: one per evaluation queue (each taking only an evaluation id,
and running workers.pipeline), and the probe. The worker bootstrap imports this module
(rundramatiq's discovery of each app's ``actors``, and workers.embedded), as does
workers.services for the probe it sends; the apps send by actor name (submissions.queueing)."""

from __future__ import annotations

import logging
import threading
import traceback

import dramatiq
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from bench_runner.errors import InputError
from submissions.models import Evaluation
from submissions.queueing import ACTORS, QUEUES
from workers.heartbeat import beat, worker_name
from workers.judge import judge
from workers.models import WorkerHeartbeat
from workers.pipeline import (
    evaluation_claim_fair,
    evaluation_fail_infra,
    evaluation_fail_unusable,
    evaluation_finish,
    evaluation_set_stage,
    lease_keeper,
)

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
    """Judge the fairest queued evaluation of the message's toolchain (often the message's own)."""
    me = f"{worker_name()}/{threading.current_thread().name}"
    toolchain = Evaluation.objects.filter(pk=evaluation_id).values_list("toolchain", flat=True).first()
    claim = evaluation_claim_fair(toolchain=toolchain, worker=me, hint=evaluation_id) if toolchain else None
    if claim is None:
        logger.info("no queued %s evaluation for message %s (done or held by others); skipping", toolchain,
                    evaluation_id)
        return
    evaluation_id = claim.evaluation_id
    evaluation = Evaluation.objects.select_related("submission__task").get(pk=evaluation_id)
    with lease_keeper(claim):
        try:
            record = judge(evaluation, on_stage=lambda stage: evaluation_set_stage(claim, stage))
        except InputError as exc:  # the evaluator refused the input: a retry would refuse it again
            logger.warning("evaluation %s cannot be evaluated: %s", evaluation_id, exc)
            evaluation_fail_unusable(claim, str(exc))
            return
        except Exception as exc:
            logger.exception("evaluation %s failed in the infrastructure", evaluation_id)
            evaluation_fail_infra(claim, _reason(exc))
            return
    if record.is_infrastructure_failure:
        evaluation_fail_infra(claim, f"the evaluator reported a system error: {record.reason or 'no reason given'}")
        return
    try:
        finished = evaluation_finish(claim, record)
    except (OperationalError, InterfaceError):
        raise  # the database is away: the message is retried (_database_hiccup)
    except Exception as exc:  # storing failed for another reason: ours, never the kernel's
        logger.exception("evaluation %s could not be stored", evaluation_id)
        evaluation_fail_infra(claim, "storing the verdict failed: " + _reason(exc))
        return
    if not finished:
        logger.warning("evaluation %s attempt %s lost its lease before finishing", evaluation_id, claim.attempt)


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"


# One actor per toolchain queue, under the names submissions.queueing sends to.
evaluate_cpu_sim = dramatiq.actor(
    evaluation_process, actor_name=ACTORS["cpu-sim"], queue_name=QUEUES["cpu-sim"], **ACTOR_OPTIONS
)
evaluate_cann = dramatiq.actor(
    evaluation_process, actor_name=ACTORS["cann"], queue_name=QUEUES["cann"], **ACTOR_OPTIONS
)


PROBE_QUEUE = "probe"


@dramatiq.actor(queue_name=PROBE_QUEUE, max_retries=0, time_limit=30_000)
def probe(token: str) -> None:
    """Answer a probe so an operator can see which host consumes a queue (manage.py probe_worker)."""
    name = worker_name()
    if not WorkerHeartbeat.objects.filter(name=name).exists():
        beat(name=name, queues=[], embedded=False)
    WorkerHeartbeat.objects.filter(name=name).update(last_probe=token, last_probe_at=timezone.now())
