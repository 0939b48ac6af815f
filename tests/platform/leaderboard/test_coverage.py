"""Issue #30, coverage: a run that judged a few easy tasks is not ranked beside runs that judged
the whole board.

A run is ranked only when it judged every task of the board's scope with its k samples
(leaderboard.coverage); a partial run is listed after every ranked run, without a rank, with
its coverage. Benchmark mode (``?split=eval``) makes the scope the held-out tasks, so it needs
every one of them. The page, the API and both exports say the same.
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from leaderboard import coverage
from leaderboard.metrics import Cell, TaskTally
from submissions.models import LanguageModel, Run
from tests.platform.factories import make_task
from tests.platform.leaderboard.conftest import judge

pytestmark = pytest.mark.django_db

SLUGS = (("add", 1), ("relu", 1), ("softmax", 2), ("matmul", 3))
K = 2


@pytest.fixture
def board(django_user_model):
    """Four tasks; a complete run (every task × 2 samples, the hard ones failing) and a partial run
    (two samples of the easiest task, both passing: exec@1 100% against the complete run's 50%)."""
    tasks = {slug: make_task(slug, level=level) for slug, level in SLUGS}
    owner = django_user_model.objects.create_user("lab")
    whole = _run(owner, "honest")
    for slug, _ in SLUGS:
        for i in range(K):
            outcome = "passed" if slug in ("add", "relu") else "wrong_answer"
            judge(task=tasks[slug], kernel=f"// whole {slug} {i}\n", outcome=outcome,
                  speedup=1.0 if outcome == "passed" else None, author=owner, run=whole, sample_index=i)
    picky = _run(owner, "cherry-picker")
    for i in range(K):
        judge(task=tasks["add"], kernel=f"// picky add {i}\n", outcome="passed", speedup=1.2, author=owner,
              run=picky, sample_index=i)
    return {"tasks": tasks, "owner": owner, "whole": whole, "picky": picky}


def _run(owner, name: str, k: int = K) -> Run:
    model = LanguageModel.objects.create(owner=owner, name=f"model-{name}")
    return Run.objects.create(model=model, name=name, samples_per_task=k)


def _api_rows(client, query: str = "") -> list[dict]:
    return [r for r in client.get(f"/api/v1/leaderboard/models/{query}").json()["rows"] if not r["baseline"]]


def test_the_partial_run_is_marked_and_ranked_below_on_the_page(client, board):
    whole, picky = board["whole"], board["picky"]
    html = client.get("/leaderboard/").content.decode()
    assert html.index(f'id="run-{whole.pk}"') < html.index(f'id="run-{picky.pk}"')
    picky_row = re.search(rf'<tr[^>]*id="run-{picky.pk}".*?</tr>', html, re.S).group(0)
    whole_row = re.search(rf'<tr[^>]*id="run-{whole.pk}".*?</tr>', html, re.S).group(0)
    assert "partial · 1 / 4 tasks" in picky_row and 'data-testid="partial"' in picky_row
    assert re.search(r'<td class="num muted">\s*1\s*</td>', whole_row)  # ranked first
    assert not re.search(r'<td class="num muted">\s*\d+\s*</td>', picky_row)  # no rank at all
    assert "partial" not in whole_row
    assert "100.0%" in picky_row and "50.0%" in whole_row  # the numbers themselves are unchanged
    # Sorting by any column, either way, never lifts it above the complete run.
    for sort in ("exec@1", "-exec@1", "-mean_speedup", "compile@1"):
        page = client.get(f"/leaderboard/?sort={sort}").content.decode()
        assert page.index(f'id="run-{whole.pk}"') < page.index(f'id="run-{picky.pk}"'), sort


def test_the_api_and_the_exports_carry_the_coverage_and_the_same_order(client, board):
    whole, picky = board["whole"], board["picky"]
    rows = _api_rows(client)
    assert [r["run"] for r in rows] == [whole.pk, picky.pk]
    assert rows[0]["rank"] == 1 and rows[0]["complete"]
    assert rows[0]["coverage"] == {"tasks_in_scope": 4, "tasks_covered": 4, "tasks_attempted": 4,
                                   "samples_per_task": K, "samples_judged": 8, "samples_expected": 8,
                                   "held_out": False, "complete": True, "label": "4 / 4 tasks"}
    assert rows[1]["rank"] is None and not rows[1]["complete"]
    assert rows[1]["coverage"]["tasks_covered"] == 1 and rows[1]["coverage"]["tasks_in_scope"] == 4
    assert rows[1]["coverage"]["label"] == "1 / 4 tasks"
    assert rows[1]["metrics"]["exec@1"]["value"] == 1.0 > rows[0]["metrics"]["exec@1"]["value"]

    data = client.get("/leaderboard/export/models.json").json()
    assert [(r["run"], r["rank"], r["complete"]) for r in data["rows"] if not r["baseline"]] == [
        (whole.pk, 1, True), (picky.pk, None, False)]
    table = list(csv.DictReader(io.StringIO(client.get("/leaderboard/export/models.csv").content.decode())))
    runs = [r for r in table if r["baseline"] == "False"]
    assert [(r["run"], r["rank"], r["complete"], r["tasks_covered"], r["tasks_in_scope"]) for r in runs] == [
        (str(whole.pk), "1", "True", "4", "4"), (str(picky.pk), "", "False", "1", "4")]


def test_a_missing_sample_is_partial_too(client, board):
    """Covering every task with fewer than the run's k samples somewhere is partial: stopping a
    task's sampling once it passes would otherwise pay."""
    stopper = _run(board["owner"], "stopper")
    for slug, _ in SLUGS:
        judge(task=board["tasks"][slug], kernel=f"// stop {slug} 0\n", outcome="passed", speedup=1.0,
              author=board["owner"], run=stopper, sample_index=0)
    judge(task=board["tasks"]["matmul"], kernel="// stop matmul 1\n", outcome="wrong_answer",
          author=board["owner"], run=stopper, sample_index=1)
    row = next(r for r in _api_rows(client) if r["run"] == stopper.pk)
    assert row["rank"] is None and not row["complete"]
    assert (row["coverage"]["tasks_attempted"], row["coverage"]["tasks_covered"]) == (4, 1)
    assert row["coverage"]["samples_judged"] == 5 and row["coverage"]["samples_expected"] == 8


def test_benchmark_mode_needs_every_held_out_task(client, board, settings):
    settings.AKGEN_RELEASE_EVAL_TASKS = ["softmax", "matmul"]
    owner, tasks, whole = board["owner"], board["tasks"], board["whole"]
    held = _run(owner, "held-out only")  # every held-out task, nothing else
    almost = _run(owner, "all but one")  # every task but one held-out one
    for slug in ("softmax", "matmul"):
        for i in range(K):
            judge(task=tasks[slug], kernel=f"// held {slug} {i}\n", outcome="wrong_answer", author=owner, run=held,
                  sample_index=i)
    for slug in ("add", "relu", "softmax"):
        for i in range(K):
            judge(task=tasks[slug], kernel=f"// almost {slug} {i}\n", outcome="passed", speedup=1.0, author=owner,
                  run=almost, sample_index=i)

    bench = {r["run"]: r for r in _api_rows(client, "?split=eval")}
    assert bench[whole.pk]["complete"] and bench[held.pk]["complete"]
    assert bench[whole.pk]["coverage"]["held_out"] and bench[whole.pk]["coverage"]["tasks_in_scope"] == 2
    assert not bench[almost.pk]["complete"] and bench[almost.pk]["rank"] is None
    assert bench[almost.pk]["coverage"]["label"] == "1 / 2 held-out tasks"
    # 100% on the one held-out task it judged, against 0% of the complete runs: still below them.
    assert bench[almost.pk]["metrics"]["exec@1"]["value"] == 1.0 > bench[whole.pk]["metrics"]["exec@1"]["value"]
    order = [r["run"] for r in _api_rows(client, "?split=eval")]
    assert order.index(almost.pk) > max(order.index(whole.pk), order.index(held.pk))
    assert board["picky"].pk not in bench  # it judged no held-out task: no row on the benchmark board
    html = client.get("/leaderboard/?split=eval").content.decode()
    assert "partial · 1 / 2 held-out tasks" in html
    # On the full board the held-out-only run is partial in its turn.
    full = {r["run"]: r for r in _api_rows(client)}
    assert not full[held.pk]["complete"] and full[held.pk]["coverage"]["label"] == "2 / 4 tasks"
    assert not full[almost.pk]["complete"] and full[whole.pk]["rank"] == 1


def test_a_level_board_scopes_the_tasks(client, board):
    """The scope is the board's filter: on the level-1 board the cherry-picker lacks one task,
    and once it judges that one too it is complete and ranked like anyone else."""
    by_run = {r["run"]: r for r in _api_rows(client, "?level=1")}
    assert by_run[board["whole"].pk]["coverage"]["label"] == "2 / 2 tasks"
    assert by_run[board["picky"].pk]["coverage"]["label"] == "1 / 2 tasks"
    assert by_run[board["picky"].pk]["rank"] is None
    for i in range(K):
        judge(task=board["tasks"]["relu"], kernel=f"// picky relu {i}\n", outcome="passed", speedup=1.0,
              author=board["owner"], run=board["picky"], sample_index=i)
    rows = _api_rows(client, "?level=1")
    assert sorted(r["rank"] for r in rows) == [1, 2] and all(r["complete"] for r in rows)


def test_a_new_task_in_scope_makes_a_cached_complete_run_partial(client, board):
    assert _api_rows(client)[0]["complete"]  # computed and cached
    make_task("gelu", level=1)
    row = next(r for r in _api_rows(client) if r["run"] == board["whole"].pk)
    assert not row["complete"] and row["coverage"]["label"] == "4 / 5 tasks"


def test_the_rule_itself():
    scope = coverage.Scope(task_ids=frozenset({1, 2, 3}), held_out=False)
    tallies = [TaskTally(1, 1, 2, 2, 2, 1.0), TaskTally(2, 1, 2, 1, 0, None), TaskTally(3, 2, 1, 1, 1, 1.0)]
    cov = coverage.measure(tallies, scope, samples_per_task=2)
    assert (cov.tasks_covered, cov.tasks_attempted, cov.samples_judged, cov.samples_expected) == (2, 3, 5, 6)
    assert not cov.complete and cov.label == "2 / 3 tasks"
    assert coverage.measure(tallies, scope, samples_per_task=1).complete
    # unjudged samples keep a run out of the ranking even when the judged ones would cover it
    with_unjudged = [*tallies[:2], TaskTally(3, 2, 2, 1, 1, 1.0, unjudged=1)]
    assert not coverage.measure(with_unjudged, scope, samples_per_task=2).complete
    # a task outside the scope covers nothing; an empty scope is never complete
    assert coverage.measure([TaskTally(9, 1, 5, 5, 5, 1.0)], scope, samples_per_task=1).tasks_covered == 0
    assert not coverage.measure([], coverage.Scope(frozenset(), held_out=False), samples_per_task=1).complete
    # a pass@k cell of a complete run orders it only if it stands on the whole scope
    whole = coverage.measure(tallies, scope, samples_per_task=1)
    assert coverage.orders_by(Cell(0.5, tasks=3), whole) and coverage.orders_by(1.3, whole)
    assert not coverage.orders_by(Cell(0.9, tasks=2), whole) and not coverage.orders_by(Cell(None), whole)
    assert not coverage.orders_by(None, whole)
