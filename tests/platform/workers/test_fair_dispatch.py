"""One submitter's flood delays that submitter, not everyone (workers.pipeline.evaluation_claim_fair).

The unit part checks the order a worker takes queued evaluations in. The flood part runs the
documented bound through a real `rundramatiq` worker on PostgreSQL and RabbitMQ: one user's 20
kernels are queued before another user's one, a single worker thread judges them, and the other
user's kernel starts after at most ONE of the flood's (the one the worker had taken before it
arrived) — with FIFO dispatch it would start after all 20.
"""

from __future__ import annotations

import os
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from submissions.models import EvalStatus, Evaluation, Submission
from tests.platform.factories import make_task
from tests.platform.rabbitmq import purge_queues
from workers import pipeline

pytestmark = pytest.mark.django_db


def _queued(task, author, n, *, start=0, at=None):
    out = []
    for i in range(start, start + n):
        sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                        kernel_source=f"// {author.username} {i}\n", sha256=f"{author.pk}{i}".ljust(64, "0"),
                                        author=author)
        out.append(Evaluation.objects.create(submission=sub, enqueued_at=at or timezone.now()))
    return out


def test_the_least_served_submitter_goes_first_oldest_first():
    users = get_user_model().objects
    flood, other, third = (users.create_user(n) for n in ("flood", "other", "third"))
    task = make_task("fair")
    t0 = timezone.now() - timedelta(minutes=5)
    flooded = _queued(task, flood, 5, at=t0)
    mine = _queued(task, other, 1, at=t0 + timedelta(minutes=1))[0]
    late = _queued(task, third, 1, at=t0 + timedelta(minutes=2))[0]

    take = lambda hint=None: pipeline.evaluation_claim_fair(toolchain="cpu-sim", worker="w", hint=hint)  # noqa: E731
    assert take().evaluation_id == flooded[0].pk  # nobody served yet: whoever waited longest
    assert take().evaluation_id == mine.pk  # flood has one started now; other none
    assert take(hint=flooded[3].pk).evaluation_id == late.pk  # a hint never jumps the fairness order
    assert take(hint=flooded[3].pk).evaluation_id == flooded[3].pk  # among the flood's, the message's own
    assert take().evaluation_id == flooded[1].pk
    assert take().evaluation_id == flooded[2].pk and take().evaluation_id == flooded[4].pk
    assert take() is None


needs_services = pytest.mark.skipif(
    not (os.environ.get("BROKER_URL", "").startswith("amqp") and os.environ.get("DATABASE_URL", "").startswith("postgres")),
    reason="runs a real worker on PostgreSQL + RabbitMQ (scripts/test sets both)")


@needs_services
@pytest.mark.slow
@pytest.mark.rabbitmq
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_flood_delays_only_its_sender_through_a_real_worker(tmp_path):
    from bench_runner.tasks import get_task
    from submissions.intake import submission_create
    from tasks.services import task_sync_from_suite
    from tests.platform.procs import Proc
    from tests.platform.submissions.test_faults import _env

    task_sync_from_suite()
    purge_queues("eval.cpu-sim")
    users = get_user_model().objects
    flood, other = users.create_user("flood-real"), users.create_user("other-real")
    expert = get_task("abs_fp16").expert_kernel.read_text()
    flood_ids = [submission_create(task_slug="abs_fp16", path="device_only", kernel=expert + f"// flood {i}\n",
                                   author=flood).evaluation.pk for i in range(20)]
    time.sleep(0.05)
    mine = submission_create(task_slug="abs_fp16", path="device_only", kernel=expert + "// other\n",
                             author=other).evaluation.pk
    worker = Proc(["rundramatiq", "--processes", "1", "--threads", "1", "--queues", "eval.cpu-sim"], _env(tmp_path),
                  tmp_path / "worker.log")
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if Evaluation.objects.filter(pk=mine, status=EvalStatus.DONE).exists():
                break
            time.sleep(0.5)
        else:
            raise AssertionError("the other user's kernel was not judged:\n" + worker.log.read_text()[-3000:])
    finally:
        worker.stop()
        connections.close_all()
    started = Evaluation.objects.get(pk=mine).started_at
    before = Evaluation.objects.filter(pk__in=flood_ids, started_at__lt=started).count()
    assert before <= 1, f"{before} of the flood's kernels started before the other user's one"
    assert Evaluation.objects.get(pk=mine).verdict == "passed"
