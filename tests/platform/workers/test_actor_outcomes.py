"""The actor tells verdicts, refused input and infrastructure apart (run in-process, real evaluator).

Only a machine failure is retried: a kernel's failure is stored at once, input the evaluator
refuses ends unjudged at once with its reason, and a failing machine (simulated here: a disk
error cannot be produced on demand) is re-queued until its retries are spent.
"""

from __future__ import annotations

import pytest

from bench_runner.tasks import get_task
from submissions.models import EvalStatus, Evaluation, Submission
from tasks.services import task_sync_from_suite
from tests.platform.factories import make_task
from workers import actors, pipeline

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    sent = []
    monkeypatch.setattr(pipeline, "evaluation_send", sent.append)
    return sent


def _evaluation(task, kernel: str) -> Evaluation:
    sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                    kernel_source=kernel, sha256=str(abs(hash(kernel)))[:64].ljust(64, "0"))
    return Evaluation.objects.create(submission=sub)


def test_a_wrong_kernel_is_a_verdict_on_the_first_attempt(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    task_sync_from_suite()
    from tasks.models import Task

    task = Task.objects.get(slug="abs_fp16")
    template = get_task("abs_fp16").template_kernel.read_text()
    ev = _evaluation(task, template)
    actors.evaluation_process(ev.pk)
    ev.refresh_from_db()
    assert (ev.status, ev.verdict, ev.failure_category, ev.attempt, ev.infra_failures) == (
        EvalStatus.DONE, "wrong_answer", "unwritten_output", 1, 0)


def test_input_the_evaluator_refuses_ends_unjudged_at_once(no_broker):
    ev = _evaluation(make_task("gone_from_disk"), "// a kernel\n")
    actors.evaluation_process(ev.pk)
    ev.refresh_from_db()
    assert (ev.status, ev.verdict, ev.infra_failures) == (EvalStatus.FAILED, "system_error", 0)
    assert ev.error.startswith("The evaluator refused this submission: unknown task 'gone_from_disk'")
    assert no_broker == []  # nothing re-queued


def test_a_machine_failure_is_retried_then_unjudged_simulated_disk_error(monkeypatch, no_broker):
    def broken_disk(evaluation, *, on_stage):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(actors, "judge", broken_disk)
    ev = _evaluation(make_task("add"), "// a kernel\n")
    for attempt in range(1, pipeline.MAX_INFRA_FAILURES + 1):
        actors.evaluation_process(ev.pk)
        ev.refresh_from_db()
        assert ev.infra_failures == attempt
    assert (ev.status, ev.verdict) == (EvalStatus.FAILED, "system_error")
    assert "No space left on device" in ev.error
