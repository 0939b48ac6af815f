"""A run's page (issue #22): task × sample grid with verdicts linked to each visible sample, the
API's pass@k per task, failures by category, unjudged samples; linked from the board, the profile
and the run API. Samples are judged through the worker's own calls (conftest.judge)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import token_create
from leaderboard.progress import run_progress
from submissions.models import EvalStatus, Evaluation, LanguageModel, Run
from tests.platform.factories import make_task
from tests.platform.leaderboard.conftest import judge

pytestmark = pytest.mark.django_db


@pytest.fixture
def judged_run():
    users = get_user_model().objects
    owner = users.create_user("lab", password="pw")
    add, relu = make_task("add"), make_task("relu")
    model = LanguageModel.objects.create(owner=owner, name="tiny-coder")
    run = Run.objects.create(model=model, name="k3", samples_per_task=3)
    subs = {
        ("add", 0): judge(task=add, kernel="// a0\n", outcome="passed", speedup=1.5, author=owner, run=run, sample_index=0),
        ("add", 1): judge(task=add, kernel="// a1\n", outcome="wrong_answer", author=owner, run=run, sample_index=1),
        ("add", 2): judge(task=add, kernel="// a2\n", outcome="compile_error", author=owner, run=run, sample_index=2,
                          visibility="private"),
        ("relu", 0): judge(task=relu, kernel="// r0\n", outcome="api_mismatch", author=owner, run=run, sample_index=0),
        ("relu", 1): judge(task=relu, kernel="// r1\n", outcome=None, author=owner, run=run, sample_index=1),
    }
    Evaluation.objects.filter(submission=subs[("relu", 1)]).update(status=EvalStatus.FAILED, error="worker lost")
    return run, owner, subs


def _cells(html: str, task: str) -> list[str]:
    row = re.search(rf'<tr data-task="{task}">(.*?)</tr>', html, re.S).group(1)
    return re.findall(r'<td class="cell">(.*?)</td>', row, re.S)


def test_the_run_page_shows_every_sample_and_the_apis_numbers(judged_run):
    run, owner, subs = judged_run
    html = Client().get(f"/runs/{run.pk}/").content.decode()
    add = _cells(html, "add")
    assert len(add) == 3
    assert f'href="/submissions/{subs[("add", 0)].pk}/"' in add[0] and 'data-verdict="passed"' in add[0]
    assert 'data-verdict="wrong_answer"' in add[1]
    assert 'data-verdict="compile_error"' in add[2] and "href=" not in add[2]  # private: verdict, no code
    relu = _cells(html, "relu")
    assert 'data-verdict="compile_error"' in relu[0] and 'data-verdict="system_error"' in relu[1]
    assert '<span class="muted">·</span>' in relu[2]  # not submitted
    progress = run_progress(run)
    row = next(t for t in progress.tasks if t.task == "add")
    assert f"{row.pass_at_1:.2f}" in re.search(r'<tr data-task="add">(.*?)</tr>', html, re.S).group(1)
    assert 'data-testid="run-unjudged">1<' in html
    failures = re.search(r'data-testid="run-failures">(.*?)</table>', html, re.S).group(1)
    assert "API signature or overload mismatch" in failures and "undeclared identifier" in failures
    # The owner opens the private sample too.
    client = Client()
    client.force_login(owner)
    assert f'href="/submissions/{subs[("add", 2)].pk}/"' in _cells(client.get(f"/runs/{run.pk}/").content.decode(),
                                                                     "add")[2]
    assert Client().get("/runs/999999/").status_code == 404


def test_the_run_page_is_linked_from_the_board_the_profile_and_the_api(judged_run):
    run, owner, _ = judged_run
    assert f'href="/runs/{run.pk}/"' in Client().get("/leaderboard/").content.decode()
    client = Client()
    client.force_login(owner)
    assert f'href="/runs/{run.pk}/"' in client.get("/accounts/profile/").content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=owner, name='t', scopes=['read']).key}")
    assert api.get(f"/api/v1/runs/{run.pk}/").json()["html_url"] == f"http://testserver/runs/{run.pk}/"


def test_a_run_being_judged_polls_and_stops_when_done(judged_run):
    run, owner, _ = judged_run
    assert "hx-trigger" not in Client().get(f"/runs/{run.pk}/").content.decode()
    judge(task=make_task("exp"), kernel="// e0\n", outcome=None, author=owner, run=run, sample_index=0)
    page = Client().get(f"/runs/{run.pk}/").content.decode()
    assert 'hx-trigger="every 3s"' in page and 'data-verdict="">Queued' in page
    partial = Client().get(f"/runs/{run.pk}/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="run-body").content.decode()
    assert "<html" not in partial and 'data-testid="run-grid"' in partial
