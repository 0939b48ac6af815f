"""Journeys of the people who run the workspace, in Chromium, with screenshots under var/:

* the curator: a workspace admin grants the role on the Roles page; the new curator finds
  "New release" on the releases page, while an annotator who opens the same form gets the
  site's refusal naming releases.curate and who grants it;
* the annotator on an empty install: the demo set-up's starter queues are there, the admin
  creates a queue in the app, the annotator finds it and sees no admin actions.
"""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from annotations.models import Queue
from annotations.roles import can_curate, role_grant
from tests.e2e.test_submit_flow import eval_queue  # noqa: F401 (a fixture: this test's own broker queue)

pytestmark = pytest.mark.browser
PASSWORD = "pw-journey-correct-horse"


@pytest.fixture(autouse=True)
def quick(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"


def _person(name: str, *roles: str):
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    for role in roles:
        role_grant(user, role)
    return user


def _log_in(page, base: str, name: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.django_db(transaction=True)
def test_curator_journey(live_server, page, screenshot):
    base = live_server.url
    _person("boss", "admin")
    cora = _person("cora")
    _person("anna", "annotator")

    _log_in(page, base, "boss")
    page.goto(f"{base}/workspace/roles/")
    page.fill("#grant-user", "cora")
    page.select_option("#grant-role", "curator")
    with page.expect_navigation():
        page.click("button.button:has-text('Grant')")
    expect(page.locator("text=revoke curator")).to_be_visible()
    screenshot(page, "journey-curator-1-granted")
    cora.refresh_from_db()
    assert can_curate(get_user_model().objects.get(pk=cora.pk))

    _log_in(page, base, "cora")
    page.goto(f"{base}/releases/")
    expect(page.locator("[data-testid=new-release]")).to_be_visible()
    page.click("[data-testid=new-release]")
    expect(page.locator("[data-testid=release-form]")).to_be_visible()
    screenshot(page, "journey-curator-2-new-release")

    _log_in(page, base, "anna")
    page.goto(f"{base}/releases/")
    expect(page.locator("[data-testid=new-release]")).to_have_count(0)
    response = page.goto(f"{base}/releases/new/")
    assert response.status == 403
    expect(page.locator("[data-testid=denied-permission]")).to_have_text("releases.curate")
    expect(page.locator("[data-testid=denied-granted-by]")).to_contain_text("workspace admin")
    screenshot(page, "journey-curator-3-refused")


@pytest.mark.django_db(transaction=True)
def test_annotator_journey_from_an_empty_install(live_server, page, screenshot):
    base = live_server.url
    call_command("bootstrap_demo", verbosity=0)
    starters = set(Queue.objects.values_list("kind", flat=True))
    assert {"explain", "fix", "docqa"} <= starters
    _person("boss", "admin")
    _person("anna", "annotator")

    _log_in(page, base, "boss")
    page.goto(f"{base}/workspace/")
    page.click("[data-testid=new-queue]")
    page.fill("input[name=slug]", "softmax-explain")
    page.fill("input[name=name]", "Explain softmax kernels")
    page.select_option("select[name=kind]", "explain")
    page.fill("textarea[name=guidelines]", "One section per concern; link the lines.")
    screenshot(page, "journey-annotator-1-new-queue")
    with page.expect_navigation():
        page.click("[data-testid=queue-save]")
    assert Queue.objects.filter(slug="softmax-explain", kind="explain").exists()

    _log_in(page, base, "anna")
    page.goto(f"{base}/workspace/")
    expect(page.locator("[data-queue=softmax-explain]")).to_be_visible()
    expect(page.locator("[data-testid=new-queue]")).to_have_count(0)
    expect(page.locator("[data-testid=nav-review]")).to_have_count(0)
    screenshot(page, "journey-annotator-2-home")
    response = page.goto(f"{base}/workspace/queues/new/")
    assert response.status == 403
    expect(page.locator("[data-testid=denied-permission]")).to_have_text("annotations.manage")
    screenshot(page, "journey-annotator-3-refused")


@pytest.mark.django_db(transaction=True)
def test_model_team_then_visitor_journey(live_server, page, screenshot, eval_queue, tmp_path):  # noqa: F811
    """A model team registers a model and a run, submits samples through the batch API with a
    token, a real worker judges them; the team follows its run page to the samples and the
    board, and an anonymous visitor reads the same numbers on the pages and through the API."""
    import json
    import os
    import shutil
    import time
    import urllib.request

    from dramatiq import Worker

    from accounts.services import token_create
    from submissions.models import Evaluation
    from tasks.services import task_sync_from_suite
    from tests.e2e.test_submit_flow import _real_evaluator_missing, _sample_add_task  # noqa: PLC0415

    missing = _real_evaluator_missing()
    if missing:
        pytest.skip(f"real evaluation needs the evaluator and the npukb suite: {missing}")
    sample = _sample_add_task()
    slug = sample.name
    shutil.copytree(sample, tmp_path / "suite" / slug)
    assert not task_sync_from_suite(root=tmp_path / "suite").errors
    base = live_server.url
    team = _person("team")
    key = token_create(user=team, name="gen", scopes=["read", "submit"]).key

    def api(method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(f"{base}/api/v1/{path}", method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (the live test server)
            return json.loads(response.read())

    model = api("POST", "models/", {"name": "tiny-coder", "training_stage": "sft"})
    run = api("POST", "runs/", {"model": model["id"], "name": "k2", "samples_per_task": 2})
    expert = (sample / "expert" / "kernel.cpp").read_text(encoding="utf-8")
    batch = api("POST", "submissions/batch/", {"submissions": [
        {"task": slug, "run": run["id"], "sample_index": 0, "kernel": expert},
        {"task": slug, "run": run["id"], "sample_index": 1, "kernel": expert + "\nnot C++;\n"}]})
    assert [r["status_code"] for r in batch["results"]] == [201, 201], batch

    broker, queue = eval_queue
    worker = Worker(broker, queues={queue}, worker_threads=1, worker_timeout=100)
    worker.start()
    try:
        deadline = time.monotonic() + int(os.environ.get("AKGEN_E2E_EVAL_TIMEOUT_S", "180"))
        while Evaluation.objects.filter(submission__run_id=run["id"], status="done").count() < 2:
            assert time.monotonic() < deadline, "the worker did not judge both samples in time"
            time.sleep(0.5)
    finally:
        worker.stop(timeout=10_000)
    verdicts = dict(Evaluation.objects.filter(submission__run_id=run["id"])
                    .values_list("submission__sample_index", "verdict"))
    assert verdicts == {0: "passed", 1: "compile_error"}, verdicts

    # The team: the run page from the run API's html_url, its grid, a sample, the board row.
    html_url = api("GET", f"runs/{run['id']}/")["html_url"]
    _log_in(page, base, "team")
    page.goto(html_url)
    grid = page.locator("[data-testid=run-grid]")
    expect(grid).to_contain_text(slug)
    expect(page.locator("[data-testid=run-failures]")).to_be_visible()
    screenshot(page, "journey-model-team-1-run-page")
    with page.expect_navigation():
        grid.locator("td.cell a").first.click()
    assert "/submissions/" in page.url
    expect(page.locator("#evaluation")).to_have_attribute("data-status", "done")
    screenshot(page, "journey-model-team-2-sample")
    page.goto(html_url)
    with page.expect_navigation():
        page.click("[data-testid=run-board-link]")
    expect(page.locator(f"#run-{run['id']}")).to_be_visible()
    screenshot(page, "journey-model-team-3-board")

    # The visitor: no account, the same run on the board and through the public API.
    page.context.clear_cookies()
    page.goto(f"{base}/leaderboard/")
    expect(page.locator("[data-testid=run-link]").first).to_contain_text("tiny-coder")
    page.click("[data-testid=run-link] >> nth=0")
    page.wait_for_url(f"**/runs/{run['id']}/")
    expect(page.locator("[data-testid=run-grid]")).to_contain_text(slug)
    screenshot(page, "journey-visitor-1-run-page")
    page.goto(f"{base}/tasks/{slug}/")
    screenshot(page, "journey-visitor-2-task")
    with urllib.request.urlopen(f"{base}/api/v1/leaderboard/models/", timeout=30) as response:  # noqa: S310
        board = json.loads(response.read())
    names = [json.dumps(row) for row in board["rows"]]
    assert any("tiny-coder" in row for row in names), f"the anonymous board API lists the run: {names}"
