"""Per route family — runs, tasks, leaderboards — what an anonymous reader, another user and the
owner get from the pages and from the API when a run holds a private sample (issue #30).

The private sample passed faster than the public one and carries a marker in its kernel and its
reasoning: no page or endpoint of these families shows either to anyone (they show no kernels),
the sample never ranks, and only its owner gets a link to it. The submission pages themselves
are tests/platform/submissions/test_privacy.py; releases, tests/platform/releases/test_privacy.py.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from submissions import intake
from submissions.models import LanguageModel, Run
from tests.platform.tasks.samples import EXPERT, PASSED, make_add_task

pytestmark = pytest.mark.django_db

SECRET = "PRIVATE_SAMPLE_a11e"
VIEWERS = ["anonymous", "other", "owner"]


@pytest.fixture
def world(db) -> dict:
    from tests.platform.tasks.samples import judge_row

    users = get_user_model().objects
    owner, other = users.create_user("owner", password="pw-owner-1"), users.create_user("other", password="pw-o-1")
    make_add_task()
    run = Run.objects.create(model=LanguageModel.objects.create(owner=owner, name="m-7b"), name="k2",
                             samples_per_task=2)
    public = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT + "// public\n",
                                      author=owner, run=run, sample_index=0, reasoning="shared thoughts")
    judge_row(public.evaluation, PASSED)
    private = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT + f"// {SECRET}\n",
                                       author=owner, run=run, sample_index=1, visibility="private",
                                       reasoning=f"thoughts {SECRET}")
    judge_row(private.evaluation, {**PASSED, "speedup": 5.0})
    mine = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT + f"// mine {SECRET}\n",
                                    author=owner, visibility="private")
    judge_row(mine.evaluation, {**PASSED, "speedup": 6.0})
    return {"owner": owner, "other": other, "run": run, "public": public.submission,
            "private": [private.submission, mine.submission]}


def _clients(world, who: str, make_key) -> tuple[Client, APIClient]:
    page, api = Client(), APIClient()
    if who != "anonymous":
        page.force_login(world[who])
        api.credentials(HTTP_AUTHORIZATION=f"Token {make_key(world[who], scopes=('read',))}")
    return page, api


def _links_to(text: str, submission) -> bool:
    return f"/submissions/{submission.pk}/" in text


@pytest.mark.parametrize("who", VIEWERS)
def test_runs(world, who, make_key):
    page, api = _clients(world, who, make_key)
    run, [private, _] = world["run"], world["private"]
    html = page.get(f"/runs/{run.pk}/").content.decode()
    assert SECRET not in html
    assert _links_to(html, world["public"])
    assert _links_to(html, private) == (who == "owner")  # others see its verdict, not its code
    response = api.get(f"/api/v1/runs/{run.pk}/")
    if who == "anonymous":
        assert response.status_code == 401  # runs need a key, as before
        return
    assert response.status_code == 200 and SECRET not in response.content.decode()
    # The counts are the page's (a private sample's verdict shows there), the same for every reader.
    [row] = response.json()["progress"]["tasks"]
    assert (row["submitted"], row["passed"]) == (2, 2)
    listed = {r["id"] for r in api.get(f"/api/v1/submissions/?run={run.pk}").json()["results"]}
    assert listed == ({world["public"].pk, private.pk} if who == "owner" else set())  # a key lists its own


@pytest.mark.parametrize("who", VIEWERS)
def test_tasks(world, who, make_key):
    page, api = _clients(world, who, make_key)
    for url in ("/tasks/", "/tasks/add/", "/tasks/add/submissions/"):
        html = page.get(url).content.decode()
        assert SECRET not in html, url
        for private in world["private"]:
            assert not _links_to(html, private) or who == "owner", url
    listed = page.get("/tasks/add/submissions/").content.decode()
    assert all(_links_to(listed, p) for p in world["private"]) == (who == "owner")
    detail = api.get("/api/v1/tasks/add/")
    assert detail.status_code == 200 and SECRET not in detail.content.decode()
    # The best ranked speedup is the public sample's for every reader: a private kernel never ranks.
    assert detail.json()["results"]["best_speedup"] == pytest.approx(PASSED["speedup"])


@pytest.mark.parametrize("who", VIEWERS)
def test_leaderboards(world, who, make_key):
    page, api = _clients(world, who, make_key)
    for url in ("/leaderboard/", "/leaderboard/people/", "/leaderboard/task/add/", "/leaderboard/taxonomy/"):
        response = page.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert SECRET not in html and not any(_links_to(html, p) for p in world["private"]), (who, url)
    for url in ("/api/v1/leaderboard/models/", "/api/v1/leaderboard/people/", "/api/v1/leaderboard/tasks/add/",
                "/api/v1/leaderboard/taxonomy/"):
        response = api.get(url)
        assert response.status_code == 200, url
        assert SECRET not in response.content.decode(), url
    ranked = [row["submission"] for row in api.get("/api/v1/leaderboard/tasks/add/").json()["rows"]]
    assert ranked == [world["public"].pk]  # the private kernels, faster, never rank
