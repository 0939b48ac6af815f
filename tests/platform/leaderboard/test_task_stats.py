"""The task list's results (leaderboard.task_stats over the aggregates), kept as evaluations finish."""

import pytest

from bench_runner.contracts import EvaluationResult
from leaderboard import aggregates
from leaderboard.models import TaskVerdictCount
from leaderboard.task_stats import task_stats, with_task_counts
from submissions import intake
from submissions.models import Evaluation
from tasks.selectors import task_list
from tests.platform.factories import make_task
from workers import pipeline

KERNEL = "// kernel\n"


def _judge(task, verdict, *, speedup=None, visibility="public", toolchain="cpu-sim"):
    created = intake.submission_create(task_slug=task.slug, path="device_only", kernel=KERNEL,
                                         visibility=visibility, toolchain=toolchain)
    claim = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="w")
    assert pipeline.evaluation_finish(claim, EvaluationResult.from_dict({"verdict": verdict, "speedup": speedup}))
    return created.evaluation


@pytest.mark.django_db
def test_finishing_evaluations_updates_the_list_counters(monkeypatch):
    monkeypatch.setattr(intake, "evaluation_send", lambda evaluation: None)  # no broker needed
    task = make_task("add")
    _judge(task, "passed", speedup=1.2)
    _judge(task, "passed", speedup=3.5, visibility="private")  # counted, but not ranked
    _judge(task, "passed", speedup=9.0, toolchain="cann")        # another toolchain: not ranked
    _judge(task, "wrong_answer")
    _judge(task, "passed", speedup=0.8)
    row = with_task_counts(task_list()).get(slug="add")
    assert (row.n_judged, row.n_passed, row.best_speedup) == (5, 4, 1.2)

    # A lost race does not count twice: the first worker's late finish is refused.
    created = intake.submission_create(task_slug="add", path="device_only", kernel=KERNEL)
    first = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="a")
    Evaluation.objects.filter(pk=created.evaluation.pk).update(lease_until=None, status="queued")
    second = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="b")
    assert pipeline.evaluation_finish(second, EvaluationResult.from_dict({"verdict": "passed", "speedup": 2.0}))
    assert not pipeline.evaluation_finish(first, EvaluationResult.from_dict({"verdict": "passed", "speedup": 2.0}))
    assert with_task_counts(task_list()).get(slug="add").n_judged == 6

    # The task page reads the same numbers, per toolchain.
    stats = task_stats(task)
    assert (stats.judged, stats.passed) == (6, 5)
    assert {t.toolchain: t.best_speedup for t in stats.per_toolchain} == {"cpu-sim": 2.0, "cann": 9.0}

    # The rebuild from evaluations agrees with what was counted incrementally.
    before = sorted(TaskVerdictCount.objects.values_list("toolchain", "verdict", "compiled", "count"))
    TaskVerdictCount.objects.all().delete()
    aggregates.rebuild()
    assert sorted(TaskVerdictCount.objects.values_list("toolchain", "verdict", "compiled", "count")) == before
    row = with_task_counts(task_list()).get(slug="add")
    assert (row.n_judged, row.n_passed, row.best_speedup) == (6, 5, 2.0)
