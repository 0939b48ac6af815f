"""Seeded results for the leaderboard tests, judged through the same calls a worker makes
(submission_create → evaluation_claim → evaluation_finish), so the incremental counting under
test is the production path."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from bench_runner.contracts import EvaluationResult
from submissions import intake
from submissions.models import LanguageModel, Run
from tests.platform.factories import make_task
from workers import pipeline

OUTCOMES = {
    "passed": {"verdict": "passed"},
    "wrong_answer": {"verdict": "wrong_answer", "diagnostics": []},
    "compile_error": {"verdict": "compile_error",
                      "diagnostics": [{"category": "undeclared", "severity": "error", "message": "x"}]},
    "api_mismatch": {"verdict": "compile_error",
                     "diagnostics": [{"category": "api_mismatch", "severity": "error", "message": "x"}]},
    "runtime_error": {"verdict": "runtime_error",
                      "diagnostics": [{"category": "ub_capacity", "severity": "error", "message": "x"}]},
}


def judge(*, task, kernel: str, outcome: str, speedup: float | None = None, author=None, run=None,
          sample_index=None, visibility="public"):
    """Submit and finish one evaluation the way a worker does; returns the submission."""
    with mock.patch.object(intake, "evaluation_send"):
        created = intake.submission_create(
            task_slug=task.slug, path="device_only", kernel=kernel, author=author, run=run,
            sample_index=sample_index, visibility=visibility)
    if outcome is None:  # submitted, not judged yet
        return created.submission
    claim = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="test")
    result = dict(OUTCOMES[outcome])
    if outcome == "passed":
        result["speedup"] = speedup
    assert pipeline.evaluation_finish(claim, EvaluationResult.from_dict(result))
    return created.submission


@dataclass
class Seeded:
    tasks: list
    runs: list
    people: list
    #: (run id, task id) → list of (outcome, speedup) in sample order
    samples: dict = field(default_factory=dict)


@pytest.fixture
def seeded(db) -> Seeded:
    """3 runs × 5 tasks (levels 1, 1, 2, 2, 3) × up to 10 samples with random outcomes, and 3 people."""
    rng = random.Random(7)
    tasks = [make_task(f"t{i}", level=level) for i, level in enumerate((1, 1, 2, 2, 3))]
    users = get_user_model().objects
    owner = users.create_user("owner")
    people = [users.create_user(name) for name in ("ana", "bo", "cy")]
    runs = []
    seed = Seeded(tasks, runs, people)
    for r, (stage, rate) in enumerate((("base", 0.1), ("sft", 0.4), ("sft_rl", 0.7))):
        model = LanguageModel.objects.create(owner=owner, name=f"m{r}", training_stage=stage)
        run = Run.objects.create(model=model, name=f"run{r}", samples_per_task=10)
        runs.append(run)
        for task in tasks:
            n = 10 if task.slug != "t4" or r != 0 else 4  # one run has too few samples for pass@5/10 on t4
            outcomes = []
            for i in range(n):
                outcome = "passed" if rng.random() < rate else rng.choice(list(OUTCOMES)[1:])
                speed = round(rng.uniform(0.3, 2.5), 3) if outcome == "passed" else None
                judge(task=task, kernel=f"// {r} {task.slug} {i}\n", outcome=outcome, speedup=speed, author=owner,
                      run=run, sample_index=i)
                outcomes.append((outcome, speed))
            seed.samples[(run.pk, task.pk)] = outcomes
    return seed
