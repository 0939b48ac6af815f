"""Fixtures of the workspace tests: people with roles, a task with an expert kernel, queues,
and judged submissions (rows moved to done directly; the evaluator is not under test here)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from annotations import services
from annotations.models import QueueKind
from annotations.roles import role_grant
from bench_runner.contracts import EvaluationResult
from submissions import intake
from submissions.models import Evaluation
from tests.platform.factories import make_task
from workers import pipeline

EXPERT = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BLOCK_LENGTH = 2048;
class KernelAdd {
  public:
    __aicore__ inline void Init(GM_ADDR x) { xGm.SetGlobalBuffer((__gm__ half*)x, BLOCK_LENGTH); }
    __aicore__ inline void Process() {}
  private:
    GlobalTensor<half> xGm;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x) { KernelAdd op; op.Init(x); op.Process(); }
"""

COMPILE_RESULT = {
    "verdict": "compile_error", "stage": "compile", "reason": "kernel.cpp:5: 'SetGlobalBufer' is not a member",
    "compile_log": "kernel.cpp:5:12: error: 'class GlobalTensor<half>' has no member named 'SetGlobalBufer'\n",
    "diagnostics": [{"category": "undeclared", "message": "no member named 'SetGlobalBufer'", "file": "kernel.cpp",
                     "line": 5, "severity": "error"}],
}
WRONG_RESULT = {
    "verdict": "wrong_answer", "stage": "verify", "reason": "case small: 12 mismatches",
    "diagnostics": [{"category": "numerical_mismatch", "message": "12 of 2048 outputs differ", "severity": "error"}],
    "cases": [{"name": "small", "passed": False, "max_abs_err": 1.5, "mismatch_count": 12}],
}
PASSED_RESULT = {"verdict": "passed", "stage": "done", "cases": [{"name": "small", "passed": True}], "speedup": 1.0}


@pytest.fixture(autouse=True)
def no_broker():
    """Submissions are saved but never sent: tests finish evaluations by hand."""
    with mock.patch.object(intake, "evaluation_send") as send:
        yield send


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(name: str, *roles: str):
    user = get_user_model().objects.create_user(name, password="pw-" + name)
    for role in roles:
        role_grant(user, role)
    return get_user_model().objects.get(pk=user.pk)


def judge(submission, result: dict) -> Evaluation:
    """Finish the submission's evaluation the way a worker does, with this record."""
    evaluation = submission.evaluations.get()
    claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="test")
    assert pipeline.evaluation_finish(claim, EvaluationResult.from_dict(result))
    evaluation.refresh_from_db()
    return evaluation


def submit(task, kernel: str, result: dict | None, author=None):
    created = intake.submission_create(task_slug=task.slug, path="device_only", kernel=kernel,
                                                    author=author)
    if result is not None:
        judge(created.submission, result)
    return created.submission


@pytest.fixture
def people(db):
    return {
        "ann": make_user("ann", "annotator"),
        "bob": make_user("bob", "annotator"),
        "rev": make_user("rev", "reviewer"),
        "admin": make_user("boss", "admin"),
        "nobody": make_user("nobody"),
    }


@pytest.fixture
def add_task(db):
    task = make_task("add")
    version = task.current_version
    version.expert_kernel = EXPERT
    version.save()
    return task


@pytest.fixture
def explain_queue(db):
    return services.queue_create(by=None, slug="explain", name="Explain expert kernels", kind=QueueKind.EXPLAIN,
                                 guidelines="## How\nOne section per concern.", overlap_target=2)


@pytest.fixture
def fix_queue(db):
    return services.queue_create(by=None, slug="fix", name="Fix failures", kind=QueueKind.FIX, overlap_target=1)
