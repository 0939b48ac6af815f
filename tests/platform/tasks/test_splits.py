"""Benchmark mode on the platform (issue #20): the task API says which tasks are held out, a
run's progress says which split it covered, and the leaderboard can score the evaluation tasks
only — all from one rule (tasks.splits over bench_runner.splits)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import token_create
from bench_runner import splits as bench_splits
from bench_runner import tasks as suite
from leaderboard.progress import run_progress
from leaderboard.selectors import BadFilter, Filters, model_leaderboard
from submissions.models import LanguageModel, Run
from tasks import splits
from tasks.services import task_sync_from_suite
from tests.platform.factories import make_task
from tests.platform.leaderboard.conftest import judge

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user, name='t', scopes=['read']).key}")
    return client


def test_the_task_api_lists_the_suites_evaluation_tasks():
    task_sync_from_suite()
    listed = bench_splits.read_split_list(suite.suite_dir())
    expected = {t.slug for t in suite.load_suite().tasks if listed.is_eval(t.slug)}
    assert splits.eval_slugs() == expected
    client = _client(get_user_model().objects.create_user("reader"))
    rows = client.get("/api/v1/tasks/?split=eval&limit=1000").json()["results"]
    assert {r["slug"] for r in rows} == expected and {r["split"] for r in rows} == {"eval"}
    train = client.get("/api/v1/tasks/?split=train&limit=1000").json()["results"]
    assert not {r["slug"] for r in train} & expected and {r["split"] for r in train} == {"train"}
    assert "abs_fp16_static" in expected  # a held-out task's static twin is held out with it
    bad = client.get("/api/v1/tasks/?split=test")
    assert bad.status_code == 400 and "split" in bad.json()["fields"]


def test_the_setting_names_operators_and_slugs_map_to_theirs(settings):
    for slug in ("softmax_fp16", "softmax_fp32_static", "relu_fp32"):
        make_task(slug)
    settings.AKGEN_RELEASE_EVAL_TASKS = ["softmax_fp32"]  # one dtype variant named: the operator is held out
    assert splits.eval_slugs() == {"softmax_fp16", "softmax_fp32_static"}


def test_benchmark_mode_scores_only_the_evaluation_tasks(settings):
    settings.AKGEN_RELEASE_EVAL_TASKS = ["held"]
    held, other = make_task("held"), make_task("other")
    owner = get_user_model().objects.create_user("lab")
    model = LanguageModel.objects.create(owner=owner, name="m")
    run = Run.objects.create(model=model, name="r", samples_per_task=2)
    for i in range(2):  # the held-out task always passes, the other never
        judge(task=held, kernel=f"// h{i}\n", outcome="passed", speedup=1.0, author=owner, run=run, sample_index=i)
        judge(task=other, kernel=f"// o{i}\n", outcome="wrong_answer", author=owner, run=run, sample_index=i)

    def exec1(filters: Filters) -> float:
        row = next(r for r in model_leaderboard(filters) if r.run_id == run.pk)
        return row.metrics["exec@1"].value

    assert exec1(Filters()) == pytest.approx(0.5)
    assert exec1(Filters.from_query({"split": "eval"})) == pytest.approx(1.0)
    assert exec1(Filters.from_query({"split": "train"})) == pytest.approx(0.0)
    baseline = next(r for r in model_leaderboard(Filters(split="eval")) if r.baseline)
    assert baseline.metrics["exec@1"].tasks == 1
    with pytest.raises(BadFilter, match="split"):
        Filters.from_query({"split": "holdout"})
    from django.test import Client

    page = Client().get("/leaderboard/?split=eval")
    assert page.status_code == 200 and b'<option value="eval" selected>' in page.content
    assert Client().get("/leaderboard/?split=holdout").status_code == 400

    progress = run_progress(run)
    assert (progress.scored_on, progress.eval_tasks, progress.train_tasks) == ("mixed", 1, 1)
    only = run_progress(run, split="eval")
    assert (only.scored_on, [t.task for t in only.tasks], only.pass_at_1) == ("eval", ["held"], 1.0)
    body = _client(owner).get(f"/api/v1/runs/{run.pk}/?split=eval").json()["progress"]
    assert body["scored_on"] == "eval" and body["restricted_to"] == "eval" and body["passed"] == 2
    assert [t["split"] for t in body["tasks"]] == ["eval"]
