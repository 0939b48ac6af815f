"""An op_host bundle (issue #19) through the real path: API -> database -> worker actor (the
real evaluator on cpu-sim; only the broker send is replaced by calling the actor) -> record; a
malformed bundle is the sender's 400 and stores nothing."""

from __future__ import annotations

import pytest

from bench_runner import op_project
from bench_runner.tasks import get_task
from submissions.models import EvalStatus, Evaluation, Submission
from tasks.services import task_sync_from_suite
from workers import actors

SLUG = "relu_fp32_dynamic"


@pytest.fixture
def sent(no_sends):
    """The ids the intake hands to the broker. On top of the conftest's mock, not a second patch:
    a monkeypatch undone after that mock's exit put the mock back for every later test."""
    out: list[int] = []
    no_sends.side_effect = lambda ev: out.append(ev.pk)
    return out


def _bundle(host: str) -> str:
    return op_project.make_bundle({"relu.cpp": host})


@pytest.mark.django_db(transaction=True)
def test_a_bundled_host_is_judged_by_the_worker_and_a_broken_one_stores_nothing(api, sent, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    task_sync_from_suite()
    suite_task = get_task(SLUG)
    kernel = suite_task.expert_kernel.read_text()
    host = suite_task.expert_host.read_text()

    ok = api.post("/api/v1/submissions/", {"task": SLUG, "path": "host_device", "kernel": kernel,
                                           "host": _bundle(host)}, format="json")
    assert ok.status_code == 201, ok.json()
    (ev_id,) = sent
    actors.evaluation_process(ev_id)
    ev = Evaluation.objects.get(pk=ev_id)
    assert (ev.status, ev.verdict) == (EvalStatus.DONE, "passed"), ev.error

    # the same bundle with a tiling bug (block dim 0): a verdict, not a lost record
    broken_host = host.replace("context->SetBlockDim(", "context->SetBlockDim(0 * ")
    bad = api.post("/api/v1/submissions/", {"task": SLUG, "path": "host_device", "kernel": kernel,
                                            "host": _bundle(broken_host)}, format="json")
    assert bad.status_code == 201
    actors.evaluation_process(sent[-1])
    ev = Evaluation.objects.get(pk=sent[-1])
    assert (ev.status, ev.verdict, ev.failure_category) == (EvalStatus.DONE, "runtime_error", "tiling_host")

    before = Submission.objects.count()
    malformed = api.post("/api/v1/submissions/", {"task": SLUG, "path": "host_device", "kernel": kernel,
                                                  "host": "junk\n" + _bundle(host)}, format="json")
    assert malformed.status_code == 400
    assert "op_host bundle" in malformed.json()["message"] + str(malformed.json())
    assert Submission.objects.count() == before
