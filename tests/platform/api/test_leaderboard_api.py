"""/api/v1/leaderboard/…: same numbers as the pages, read scope, JSON errors."""

from __future__ import annotations

import math

import pytest
from rest_framework.test import APIClient

from leaderboard import metrics
from tests.platform.leaderboard.conftest import judge, seeded  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_model_board_matches_the_raw_samples(api, seeded):  # noqa: F811
    data = api.get("/api/v1/leaderboard/models/?level=1").json()
    assert data["filters"]["level"] == "1"
    rows = {row["run"]: row for row in data["rows"] if not row["baseline"]}
    for run in seeded.runs:
        values = []
        for task in seeded.tasks[:2]:  # the level-1 tasks
            samples = seeded.samples[(run.pk, task.pk)]
            values.append(metrics.pass_at_k(len(samples), sum(o == "passed" for o, _ in samples), 1))
        cell = rows[run.pk]["metrics"]["exec@1"]
        assert cell["value"] == pytest.approx(sum(values) / 2) and cell["tasks"] == 2
        assert cell["ci95"][0] <= cell["value"] <= cell["ci95"][1]


def test_bad_filter_is_a_json_400(api, seeded):  # noqa: F811
    response = api.get("/api/v1/leaderboard/models/?shape_mode=wobbly")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] and "shape_mode" in body["message"]


def test_task_people_and_taxonomy_boards(api, seeded):  # noqa: F811
    ana = seeded.people[0]
    judge(task=seeded.tasks[2], kernel="// ana", outcome="passed", speedup=1.3, author=ana)
    task_rows = api.get(f"/api/v1/leaderboard/tasks/{seeded.tasks[2].slug}/?who=people").json()["rows"]
    assert [(r["who"], r["speedup"], r["kind"]) for r in task_rows] == [("ana", 1.3, "person")]
    assert api.get("/api/v1/leaderboard/tasks/nope/").status_code == 404
    assert api.get(f"/api/v1/leaderboard/tasks/{seeded.tasks[2].slug}/?who=robots").status_code == 400
    people = api.get("/api/v1/leaderboard/people/").json()["rows"]
    assert people[0]["user"] == "ana" and people[0]["score"] == pytest.approx(0.3 * (1 + 0.5 * math.log2(1.3)), abs=1e-4)
    tax = api.get(f"/api/v1/leaderboard/taxonomy/?run={seeded.runs[0].pk}").json()
    assert sum(r["failures"] for r in tax["rows"]) == sum(
        1 for (run_id, _), samples in seeded.samples.items() if run_id == seeded.runs[0].pk
        for o, _ in samples if o != "passed")
    assert api.get("/api/v1/leaderboard/taxonomy/?run=x").status_code == 400


def test_leaderboard_api_answers_without_a_key(db):
    """The boards are public on the site, so they are public here too (rate-limited per address)."""
    for path in ("/api/v1/leaderboard/models/", "/api/v1/leaderboard/people/", "/api/v1/leaderboard/taxonomy/"):
        assert APIClient().get(path).status_code == 200, path
