"""A run with samples the infrastructure could not judge says so and is not ranked as complete."""

from __future__ import annotations

import pytest

from leaderboard.models import RunTaskStat
from submissions.models import LanguageModel, Run
from tests.platform.leaderboard.conftest import judge
from workers import pipeline

pytestmark = pytest.mark.django_db


def _unjudged(submission) -> None:
    evaluation = submission.evaluations.get()
    for _ in range(pipeline.MAX_INFRA_FAILURES):
        claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w")
        pipeline.evaluation_fail_infra(claim, "OSError: no space left on device")


def test_unjudged_samples_are_counted_shown_and_keep_the_run_unranked(client, task, user):
    model = LanguageModel.objects.create(owner=user, name="m-unjudged")
    whole = Run.objects.create(model=model, name="whole", samples_per_task=2)
    partial = Run.objects.create(model=model, name="partial", samples_per_task=2)
    for i in range(2):
        judge(task=task, kernel=f"// whole {i}\n", outcome="wrong_answer", run=whole, sample_index=i, author=user)
    judge(task=task, kernel="// partial 0\n", outcome="passed", speedup=1.1, run=partial, sample_index=0,
          author=user)
    lost = judge(task=task, kernel="// partial 1\n", outcome=None, run=partial, sample_index=1, author=user)
    _unjudged(lost)

    stat = RunTaskStat.objects.get(run=partial)
    assert (stat.n, stat.n_passed, stat.n_unjudged) == (1, 1, 1)  # the denominator is the judged sample
    client.force_login(user)
    rows = {r["run"]: r for r in client.get("/api/v1/leaderboard/models/").json()["rows"] if not r["baseline"]}
    assert rows[whole.pk]["complete"] and rows[whole.pk]["rank"] == 1
    assert not rows[partial.pk]["complete"] and rows[partial.pk]["rank"] is None
    assert rows[partial.pk]["unjudged"] == 1 and rows[partial.pk]["metrics"]["samples"] == 1
    html = client.get("/leaderboard/").content.decode()
    assert "incomplete · 1 unjudged" in html
    # The chip's "which" link: the run's progress lists the unjudged samples per task.
    progress = client.get(f"/api/v1/runs/{partial.pk}/").json()["progress"]
    assert progress["failed"] == 1
    assert [t["failed"] for t in progress["tasks"] if t["task"] == task.slug] == [1]
