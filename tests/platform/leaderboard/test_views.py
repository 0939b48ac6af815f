"""Leaderboard pages, exports and API agree with the metrics computed from the raw samples."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from leaderboard import metrics
from leaderboard.models import RankedKernel
from submissions.models import Submission
from tests.platform.leaderboard.conftest import judge

pytestmark = pytest.mark.django_db


def expected_exec_at(seeded, run, k):
    values = []
    for task in seeded.tasks:
        samples = seeded.samples[(run.pk, task.pk)]
        n, c = len(samples), sum(1 for o, _ in samples if o == "passed")
        if n >= k:
            values.append(metrics.pass_at_k(n, c, k))
    return sum(values) / len(values)


def test_model_board_page_shows_each_run_with_its_pass_at_k(client, seeded):
    response = client.get("/leaderboard/")
    assert response.status_code == 200
    html = response.content.decode()
    for run in seeded.runs:
        assert f'data-run="{run.pk}"' in html
        assert f"{expected_exec_at(seeded, run, 1) * 100:.1f}%" in html
    assert "Expert kernels" in html and "95% bootstrap interval" in html
    # Sorted by exec@1, best first: the SFT+RL run (70% success) leads.
    order = [html.index(f'data-run="{run.pk}"') for run in seeded.runs]
    assert order[2] < order[1] < order[0]
    # Ascending flips the ranked runs; run0 judged only 4 of its 10 samples of t4, so it is
    # partial (leaderboard.coverage) and stays below them whichever the direction.
    ascending = client.get("/leaderboard/?sort=exec@1").content.decode()
    order = [ascending.index(f'data-run="{run.pk}"') for run in seeded.runs]
    assert order[1] < order[2] < order[0]
    assert "partial · 4 / 5 tasks" in ascending


def test_the_cached_board_follows_new_results(client, db, task, django_user_model):
    from submissions.models import LanguageModel, Run

    owner = django_user_model.objects.create_user("owner")
    run = Run.objects.create(model=LanguageModel.objects.create(owner=owner, name="fresh"), name="k3",
                             samples_per_task=3)
    judge(task=task, kernel="// a", outcome="wrong_answer", author=owner, run=run, sample_index=0)
    judge(task=task, kernel="// b", outcome="wrong_answer", author=owner, run=run, sample_index=1)
    assert "0.0%" in client.get("/leaderboard/").content.decode()
    client.get("/leaderboard/")  # served from the cache now
    judge(task=task, kernel="// c", outcome="passed", speedup=1.0, author=owner, run=run, sample_index=2)
    assert "33.3%" in client.get("/leaderboard/").content.decode()


def test_filters_and_bad_filters(client, seeded):
    level3 = client.get("/leaderboard/?level=3").content.decode()
    run = seeded.runs[1]
    task = seeded.tasks[4]
    samples = seeded.samples[(run.pk, task.pk)]
    rate = sum(1 for o, _ in samples if o == "passed") / len(samples)
    assert f"{rate * 100:.1f}%" in level3
    response = client.get("/leaderboard/?level=7")
    assert response.status_code == 400 and "level must be 1, 2 or 3" in response.content.decode()
    assert client.get("/leaderboard/?category=%00").status_code == 400  # PostgreSQL refuses NUL


def test_json_and_csv_exports_carry_the_same_numbers(client, seeded):
    data = client.get("/leaderboard/export/models.json").json()
    by_run = {row["run"]: row for row in data["rows"]}
    for run in seeded.runs:
        assert by_run[run.pk]["metrics"]["exec@1"]["value"] == pytest.approx(expected_exec_at(seeded, run, 1))
        assert by_run[run.pk]["metrics"]["exec@5"]["value"] == pytest.approx(expected_exec_at(seeded, run, 5))
    assert any(row["baseline"] for row in data["rows"])
    response = client.get("/leaderboard/export/models.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    csv_by_run = {r["run"]: r for r in rows}
    for run in seeded.runs:
        assert float(csv_by_run[str(run.pk)]["exec@1"]) == pytest.approx(expected_exec_at(seeded, run, 1), abs=1e-6)
    assert client.get("/leaderboard/export/nope.csv").status_code == 404
    for board in ("people", "taxonomy", "heatmap"):
        assert client.get(f"/leaderboard/export/{board}.json").status_code == 200


def test_task_board_ties_go_to_the_earlier_kernel_and_privates_stay_out(client, db, task, django_user_model):
    ada, bo, cy = (django_user_model.objects.create_user(n) for n in ("ada", "bo", "cy"))
    judge(task=task, kernel="// ada", outcome="passed", speedup=1.5, author=ada)
    judge(task=task, kernel="// bo", outcome="passed", speedup=1.5, author=bo)
    judge(task=task, kernel="// ada again", outcome="passed", speedup=1.2, author=ada)
    judge(task=task, kernel="// cy", outcome="passed", speedup=3.0, author=cy, visibility="private")
    html = client.get(f"/leaderboard/task/{task.slug}/").content.decode()
    assert re.findall(r'data-who="([^"]+)"', html) == ["ada", "bo"]  # tie: ada first; cy's kernel is private
    assert html.count("1.50×") == 2 and "1.20×" not in html  # one entry per person: ada's best
    page = client.get(f"/tasks/{task.slug}/").content.decode()
    assert "Task leaderboard" in page and "ada" in page
    assert "No correct model kernel yet" in client.get(f"/leaderboard/task/{task.slug}/?who=models").content.decode()


def test_people_board_scores_levels(client, seeded):
    ada, bo = seeded.people[:2]
    judge(task=seeded.tasks[4], kernel="// L3", outcome="passed", speedup=1.0, author=ada)  # 0.5
    judge(task=seeded.tasks[0], kernel="// L1", outcome="passed", speedup=1.0, author=bo)  # 0.2
    judge(task=seeded.tasks[1], kernel="// L1b", outcome="passed", speedup=2.0, author=bo)  # 0.3
    rows = client.get("/leaderboard/export/people.json").json()["rows"]
    # Equal scores: more solved tasks first.
    assert [(r["user"], r["score"], r["solved"]) for r in rows] == [("bo", 0.5, 2), ("ana", 0.5, 1)]
    assert "ana" in client.get("/leaderboard/people/").content.decode()


def test_taxonomy_page_counts_and_drills_down(client, seeded):
    run = seeded.runs[0]
    html = client.get(f"/leaderboard/taxonomy/?run={run.pk}&compare={seeded.runs[2].pk}").content.decode()
    assert "<svg" in html and "undeclared" in html and "run m2 / run2" in html
    # Labels as submission pages show them (bench_runner.taxonomy.title_of), not slugs.
    assert "</title>undeclared identifier or non-existent API</text>" in html and ">undeclared</text>" not in html
    drill = client.get(f"/leaderboard/taxonomy/undeclared/?run={run.pk}")
    assert drill.status_code == 200 and "<h1>undeclared identifier or non-existent API failures" in drill.content.decode()
    undeclared = Submission.objects.filter(run=run, evaluations__failure_category="undeclared")
    assert undeclared.exists()
    assert f"#{undeclared.order_by('-pk').first().pk}" in drill.content.decode()


def test_heatmap_page_draws_every_run_and_task(client, seeded):
    html = client.get("/leaderboard/heatmap/").content.decode()
    assert html.count("<svg") == 2
    for task in seeded.tasks:
        assert f"{task.slug}</text>" in html
    assert "pass@1" in html


def test_report_and_quarantine_through_the_pages(client, seeded, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-staff-123", is_staff=True)
    ranked = RankedKernel.objects.filter(run=seeded.runs[2]).order_by("-speedup").first()
    owner = seeded.runs[2].model.owner
    client.force_login(seeded.people[0])
    response = client.post(f"/leaderboard/report/{ranked.submission_id}/", {"reason": "It never reads y at all."})
    assert response.status_code == 302
    assert client.get("/leaderboard/review/").status_code == 403  # staff only
    client.force_login(staff)
    review = client.get("/leaderboard/review/").content.decode()
    assert "It never reads y at all." in review
    client.post("/leaderboard/review/", {"submission": ranked.submission_id, "action": "quarantine",
                                         "reason": "Skips half the input."})
    assert RankedKernel.objects.get(evaluation_id=ranked.evaluation_id).quarantined
    client.force_login(owner)
    page = client.get(f"/submissions/{ranked.submission_id}/").content.decode()
    assert "Quarantined" in page and "Skips half the input." in page
    client.force_login(seeded.people[1])
    assert "Skips half the input." not in client.get(f"/submissions/{ranked.submission_id}/").content.decode()
    data = json.loads(client.get("/leaderboard/export/models.json").content)
    assert data["rows"]
