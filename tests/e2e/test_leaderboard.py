"""The leaderboards in a real browser: filters and sorting over htmx, charts drawn, hover
intervals present, a staff quarantine seen by the owner; screenshots for review."""

from __future__ import annotations

import random
import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from submissions.models import LanguageModel, Run
from tests.platform.factories import make_task
from tests.platform.leaderboard.conftest import OUTCOMES, judge

pytestmark = pytest.mark.browser
PASSWORD = "pw-lb-correct-horse"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"


def _seed() -> dict:
    rng = random.Random(3)
    levels = (1, 1, 1, 2, 2, 2, 2, 3, 3)
    names = ("add", "relu", "gelu", "softmax", "layer_norm", "rms_norm", "cross_entropy", "matmul", "attention")
    tasks = [make_task(name, level=level) for name, level in zip(names, levels, strict=True)]
    users = get_user_model().objects
    owner = users.create_user("lab", password=PASSWORD)
    staff = users.create_user("staff", password=PASSWORD, is_staff=True)
    runs = []
    for name, stage, base, rate in (("Qwen2.5-7B", "base", "Qwen2.5-7B", 0.08),
                                    ("AscendKernelGen-7B", "sft", "Qwen2.5-7B", 0.45),
                                    ("AscendKernelGen-7B-RL", "sft_rl", "Qwen2.5-7B", 0.7)):
        model = LanguageModel.objects.create(owner=owner, name=name, training_stage=stage, base_model=base)
        run = Run.objects.create(model=model, name="k10-t0.8", samples_per_task=10,
                                 decoding={"temperature": 0.8, "top_p": 0.95})
        runs.append(run)
        for task in tasks:
            ease = 1.0 - 0.25 * (task.level - 1)
            for i in range(10):
                passed = rng.random() < rate * ease
                outcome = "passed" if passed else rng.choice(list(OUTCOMES)[1:])
                judge(task=task, kernel=f"// {name} {task.slug} {i}\n", outcome=outcome,
                      speedup=round(rng.uniform(0.5, 2.2), 3) if passed else None, author=owner, run=run,
                      sample_index=i)
    for person, solved in (("ada", 5), ("grace", 3)):
        user = users.create_user(person, password=PASSWORD)
        for task in tasks[:solved]:
            judge(task=task, kernel=f"// {person} {task.slug}", outcome="passed",
                  speedup=round(rng.uniform(0.8, 1.8), 3), author=user)
    return {"tasks": tasks, "runs": runs, "owner": owner, "staff": staff}


def _login(page, live_server, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.django_db(transaction=True)
def test_leaderboards_in_the_browser(live_server, page, screenshot):
    seed = _seed()
    page.goto(live_server.url + "/leaderboard/")
    board = page.locator("#model-board tbody tr")
    expect(board).to_have_count(4)  # three runs and the baseline
    expect(board.nth(0)).to_contain_text("Expert kernels")  # the baseline is pinned, not ranked
    expect(board.nth(1)).to_contain_text("AscendKernelGen-7B-RL")
    assert "95% bootstrap interval" in page.locator("#model-board .has-ci").first.get_attribute("title")
    expect(page.locator("#model-board tr.baseline-row")).to_contain_text("Expert kernels")
    screenshot(page, "leaderboard-models")

    # Sorting flips the order without a reload; the direction shows in the header.
    page.evaluate("window.__sameDocument = true")
    page.click("#model-board th[data-col='exec@1'] a")  # high→low is the default, so this flips it
    page.wait_for_url("**/leaderboard/?sort=exec%401*")
    expect(page.locator("#model-board tbody tr").nth(1)).to_contain_text("Qwen2.5-7B")
    expect(page.locator("#model-board th[aria-sort=ascending]")).to_have_count(1)
    page.select_option("[data-testid=lb-level]", "3")
    page.wait_for_url("**level=3*")
    expect(page.locator("[data-testid=run-count]")).to_contain_text("level 3 tasks")
    assert page.evaluate("window.__sameDocument") is True

    page.goto(live_server.url + f"/leaderboard/taxonomy/?run={seed['runs'][0].pk}&compare={seed['runs'][2].pk}")
    expect(page.locator("#taxonomy-chart svg rect").first).to_be_visible()
    screenshot(page, "leaderboard-taxonomy")
    page.locator("#taxonomy-chart svg a").first.click()
    expect(page.locator("#category-failures tbody tr").first).to_contain_text("#")

    page.goto(live_server.url + "/leaderboard/heatmap/")
    expect(page.locator("#heatmap svg rect").first).to_be_visible()
    expect(page.locator("#pass-curves svg polyline")).to_have_count(3)
    screenshot(page, "leaderboard-heatmap")

    page.goto(live_server.url + "/leaderboard/people/")
    expect(page.locator("#people-board tbody tr").nth(0)).to_contain_text("ada")
    screenshot(page, "leaderboard-people")

    # The task page's own leaderboard, switched to people only.
    page.goto(live_server.url + "/tasks/add/")
    expect(page.locator("[data-testid=task-board] tbody tr").first).to_be_visible()
    page.click("#task-board .seg a:has-text('People')")
    expect(page.locator("[data-testid=task-board]")).not_to_contain_text("model")
    screenshot(page, "task-page-leaderboard")

    # Someone reports the fastest model kernel; staff quarantine it; its owner sees why.
    from leaderboard.models import RankedKernel

    top = RankedKernel.objects.filter(run__isnull=False).order_by("-speedup").first()
    _login(page, live_server, "ada")
    page.goto(live_server.url + f"/submissions/{top.submission_id}/")
    page.click("[data-testid=report] summary")
    page.fill("[data-testid=report] input[name=reason]", "It returns before reading the second input.")
    page.click("[data-testid=report] button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("staff will look")
    page.context.clear_cookies()
    _login(page, live_server, "staff")
    page.goto(live_server.url + "/leaderboard/review/")
    row = page.locator("#reports tbody tr").first
    expect(row).to_contain_text("It returns before reading the second input.")
    row.locator("input[name=reason]").fill("Skips the second input; its speedup is not real.")
    screenshot(page, "leaderboard-review")
    row.locator("button[value=quarantine]").click()
    expect(page.locator("#quarantined")).to_contain_text("Skips the second input")
    page.context.clear_cookies()
    _login(page, live_server, "lab")
    page.goto(live_server.url + f"/submissions/{top.submission_id}/")
    expect(page.locator("[data-testid=quarantine-note]")).to_contain_text("Skips the second input")
    assert not page.console_errors, page.console_errors
