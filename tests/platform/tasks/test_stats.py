"""The per-version result counters the task list reads, kept by evaluation_finish."""

import pytest

from leaderboard.task_stats import task_stats_rebuild
from submissions import intake
from submissions.models import Evaluation
from tasks.models import TaskVersion
from tasks.selectors import task_list
from tests.platform.factories import make_task
from workers import pipeline

KERNEL = "// kernel\n"


def _judge(task, verdict, *, speedup=None, visibility="public", toolchain="cpu-sim"):
    created = intake.submission_create(task_slug=task.slug, path="device_only", kernel=KERNEL,
                                         visibility=visibility, toolchain=toolchain)
    claim = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="w")
    assert pipeline.evaluation_finish(claim, {"verdict": verdict, "speedup": speedup})
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
    row = task_list().get(slug="add")
    assert (row.n_judged, row.n_passed, row.best_speedup) == (5, 4, 1.2)

    # A lost race does not count twice: the first worker's late finish is refused.
    created = intake.submission_create(task_slug="add", path="device_only", kernel=KERNEL)
    first = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="a")
    Evaluation.objects.filter(pk=created.evaluation.pk).update(lease_until=None, status="queued")
    second = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="b")
    assert pipeline.evaluation_finish(second, {"verdict": "passed", "speedup": 2.0})
    assert not pipeline.evaluation_finish(first, {"verdict": "passed", "speedup": 2.0})
    assert task_list().get(slug="add").n_judged == 6

    # The rebuild from evaluations agrees with what was counted incrementally.
    version = TaskVersion.objects.get(pk=task.current_version_id)
    TaskVersion.objects.filter(pk=version.pk).update(judged_count=0, passed_count=0, best_speedup=None)
    task_stats_rebuild()
    version.refresh_from_db()
    assert (version.judged_count, version.passed_count, version.best_speedup) == (6, 5, 2.0)
