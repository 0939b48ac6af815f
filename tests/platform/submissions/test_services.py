"""Submission validation, idempotency, claims, leases and the reconciler on the real database."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from bench_runner.contracts import EvaluationResult
from submissions import intake
from submissions.errors import SourceTooLarge, SubmissionRejected, UnknownTask
from submissions.models import EvalStatus, Evaluation, LanguageModel, Run, Submission
from tests.platform.factories import make_task
from workers import pipeline

KERNEL = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void add_custom() {}\n'


@pytest.fixture(autouse=True)
def no_sends():
    """These tests are about rows; sends are checked by counting calls, not by a broker."""
    with mock.patch.object(intake, "evaluation_send") as send, mock.patch.object(pipeline, "evaluation_send", send):
        yield send


@pytest.fixture
def run(user):
    llm = LanguageModel.objects.create(owner=user, name="tiny-coder")
    return Run.objects.create(model=llm, name="k4", samples_per_task=4)


def test_create_saves_submission_and_queued_evaluation(task, user, no_sends, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = intake.submission_create(task_slug="add", path="device_only", kernel=KERNEL, author=user)
    assert created.created
    assert created.submission.task_version == task.current_version
    assert created.submission.sha256 == intake.source_sha256(KERNEL, None)
    assert created.evaluation.status == EvalStatus.QUEUED
    no_sends.assert_called_once_with(created.evaluation)


@pytest.mark.parametrize(
    "kwargs, error, code",
    [
        ({"task_slug": "nope"}, UnknownTask, "unknown_task"),
        ({"path": "sideways"}, SubmissionRejected, "invalid_path"),
        ({"kernel": ""}, SubmissionRejected, "missing_source"),
        ({"kernel": "x" * (64 * 1024 + 1)}, SourceTooLarge, "source_too_large"),
        ({"kernel": "int a;\x00"}, SubmissionRejected, "invalid_source"),
        ({"path": "host_device"}, SubmissionRejected, "missing_source"),
        ({"toolchain": "gpu"}, SubmissionRejected, "invalid_toolchain"),
        ({"sample_index": 3}, SubmissionRejected, "invalid_sample"),
    ],
)
def test_bad_input_is_rejected_and_nothing_saved(task, kwargs, error, code):
    args = {"task_slug": "add", "path": "device_only", "kernel": KERNEL} | kwargs
    with pytest.raises(error) as info:
        intake.submission_create(**args)
    assert info.value.code == code
    assert Submission.objects.count() == 0
    assert Evaluation.objects.count() == 0


def test_path_not_offered_by_task(db):
    make_task("relu", paths=("device_only",))
    with pytest.raises(SubmissionRejected) as info:
        intake.submission_create(task_slug="relu", path="host_device", kernel=KERNEL, host="int main(){}")
    assert info.value.code == "path_not_offered"


def test_run_samples_are_idempotent(task, run, no_sends):
    first = intake.submission_create(task_slug="add", path="device_only", kernel=KERNEL, run=run, sample_index=0)
    again = intake.submission_create(task_slug="add", path="device_only", kernel=KERNEL + "//", run=run,
                                       sample_index=0)
    other = intake.submission_create(task_slug="add", path="device_only", kernel=KERNEL, run=run, sample_index=1)
    assert first.created and not again.created and other.created
    assert again.submission.pk == first.submission.pk
    assert again.submission.kernel_source == KERNEL
    assert Submission.objects.filter(run=run).count() == 2


def _queued(task):
    return intake.submission_create(task_slug=task.slug, path="device_only", kernel=KERNEL).evaluation


def test_claim_is_exclusive_and_finish_needs_the_current_attempt(task):
    evaluation = _queued(task)
    claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w1")
    assert claim is not None and claim.attempt == 1
    assert pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w2") is None

    # The lease expires (worker died); another worker takes over with attempt 2.
    Evaluation.objects.filter(pk=evaluation.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    takeover = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w2")
    assert takeover is not None and takeover.attempt == 2

    # The first worker comes back: its verdict must not land.
    assert pipeline.evaluation_finish(claim, EvaluationResult.from_dict({"verdict": "passed"})) is False
    assert pipeline.evaluation_finish(takeover, EvaluationResult.from_dict({"verdict": "wrong_answer", "perf": {"cycles": 10}})) is True
    row = Evaluation.objects.get(pk=evaluation.pk)
    assert (row.status, row.verdict, row.passed, row.compiled, row.cycles) == (
        EvalStatus.DONE, "wrong_answer", False, True, 10)
    # A finished evaluation is never claimed again (redelivered message).
    assert pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w3") is None


def test_infrastructure_failures_requeue_then_fail_after_three(task, no_sends, django_capture_on_commit_callbacks):
    evaluation = _queued(task)
    for attempt in range(1, 4):
        claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w")
        assert claim.attempt == attempt
        with django_capture_on_commit_callbacks(execute=True):
            pipeline.evaluation_fail_infra(claim, f"disk full #{attempt}")
    row = Evaluation.objects.get(pk=evaluation.pk)
    assert row.status == EvalStatus.FAILED
    assert row.verdict == "system_error"
    assert row.infra_failures == 3
    assert "disk full #3" in row.error
    # queued twice again after the first two failures (plus the initial send is mocked away)
    assert no_sends.call_count == 2


def test_reconciler_resends_stale_queued_and_recovers_dead_workers(task, no_sends, django_capture_on_commit_callbacks):
    fresh = _queued(task)
    stale = _queued(task)
    dead = _queued(task)
    Evaluation.objects.filter(pk=stale.pk).update(enqueued_at=timezone.now() - timedelta(minutes=5))
    claim = pipeline.evaluation_claim(evaluation_id=dead.pk, worker="gone")
    Evaluation.objects.filter(pk=dead.pk).update(lease_until=timezone.now() - timedelta(seconds=5))
    no_sends.reset_mock()

    with django_capture_on_commit_callbacks(execute=True):
        count = pipeline.reconcile_stuck()

    assert count == 2
    sent = {call.args[0].pk for call in no_sends.call_args_list}
    assert sent == {stale.pk, dead.pk}
    assert fresh.pk not in sent
    row = Evaluation.objects.get(pk=dead.pk)
    assert row.status == EvalStatus.QUEUED and row.infra_failures == 1
    assert "gone" in row.error
    # The dead worker's late verdict is refused.
    assert pipeline.evaluation_finish(claim, EvaluationResult.from_dict({"verdict": "passed"})) is False
