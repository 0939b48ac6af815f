"""The one place the platform calls the evaluator (bench_runner stays free of Django)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from bench_runner.contracts import EvaluationResult
from bench_runner.evaluate import evaluate
from submissions.models import Evaluation
from tasks.suites import task_on_disk


def cache_dir() -> Path:
    return Path(settings.VAR_DIR) / "eval-cache"


def judge(evaluation: Evaluation, *, on_stage: Callable[[str], None]) -> EvaluationResult:
    """Evaluate the evaluation's submission; returns the evaluator's record.

    Raises bench_runner.errors.InputError when the evaluator refuses the input (never worth a
    retry) and anything else when the machine failed.
    """
    submission = evaluation.submission
    task = submission.task
    return evaluate(
        task_on_disk(task.slug, task.suite),  # from the task's own suite folder (tasks/suites.py)
        submission.kernel_source,
        submission.host_source,
        path=submission.path,
        toolchain=evaluation.toolchain,
        soc=evaluation.soc,
        cache_dir=cache_dir(),
        on_stage=on_stage,
    )
