"""The task list and a task's page in a real browser: htmx filtering kept in the URL, screenshots."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from submissions import intake
from submissions.models import Submission
from tests.platform.tasks.samples import (
    EXPERT,
    PASSED,
    WRONG,
    WRONG_ANSWER,
    judge_row,
    make_add_task,
)

pytestmark = pytest.mark.browser
ROWS = "#task-table tbody tr[data-slug]"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Rate counters live in a shared Redis: keep this test's apart from everyone else's.
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"


def _suite():
    make_add_task("add", title="Add")
    make_add_task("relu", title="ReLU", category="activation", dtypes=("float16", "float32"))
    make_add_task("gelu", title="GELU", category="activation", dtypes=("float16",))
    make_add_task("softmax", title="Softmax", level=2, category="nn", shape_mode="dynamic", dtypes=("float32",))
    make_add_task("layernorm", title="LayerNorm", level=2, category="norm", dtypes=("float16", "float32"))
    make_add_task("matmul_bias_gelu", title="MatMul + bias + GELU", level=3, category="fused", dtypes=("float16",))
    ada = get_user_model().objects.create_user("ada", password="pw-ada-123456")
    for kernel, result in ((EXPERT, PASSED), (WRONG, WRONG_ANSWER), (EXPERT + "// v2\n", PASSED)):
        created = intake.submission_create(task_slug="add", path="device_only", kernel=kernel, author=ada)
        judge_row(created.evaluation, result)


def _rows(page) -> list[str]:
    return page.locator(ROWS).evaluate_all("rows => rows.map(r => r.dataset.slug)")


@pytest.mark.django_db(transaction=True)
def test_task_list_filters_live_and_keeps_them_in_the_url(live_server, page, screenshot):
    _suite()
    page.goto(live_server.url + "/tasks/")
    assert _rows(page) == ["add", "gelu", "relu", "layernorm", "softmax", "matmul_bias_gelu"]
    page.evaluate("window.__sameDocument = true")
    screenshot(page, "task-list")

    page.select_option("[data-testid=filter-category]", "activation")
    page.wait_for_url("**/tasks/?*category=activation*")
    expect(page.locator(ROWS)).to_have_count(2)
    assert _rows(page) == ["gelu", "relu"]

    page.fill("[data-testid=task-search]", "rel")
    page.wait_for_url("**q=rel*")
    expect(page.locator(ROWS)).to_have_count(1)
    assert _rows(page) == ["relu"]
    assert page.evaluate("window.__sameDocument") is True  # htmx swapped the table, no reload

    # Sorting by a column keeps the filters; the URL is shareable.
    page.fill("[data-testid=task-search]", "")
    expect(page.locator(ROWS)).to_have_count(2)
    page.click("#task-table th >> text=Task")
    page.wait_for_url("**sort=title*")
    assert "category=activation" in page.url
    page.goto(page.url)  # a fresh load of the shared URL shows the same thing
    assert _rows(page) == ["gelu", "relu"]
    assert page.locator("[data-testid=filter-category]").input_value() == "activation"

    page.goto(live_server.url + "/tasks/?dtype=float32")
    assert _rows(page) == ["relu", "layernorm", "softmax"]
    assert page.console_errors == []


@pytest.mark.django_db(transaction=True)
def test_task_page_shows_spec_and_results(live_server, page, screenshot):
    _suite()
    page.goto(live_server.url + "/tasks/add/")
    assert page.locator("[data-testid=api-desc] h2").first.inner_text() == "Shapes and dtypes"
    # Raw HTML in the markdown is shown as text, never run.
    assert "<script>" in page.locator("[data-testid=api-desc]").inner_text()
    assert page.locator("[data-testid=cases] tbody tr").count() == 3
    assert page.locator("[data-testid=stat-judged]").inner_text() == "3"
    assert page.locator("[data-testid=stat-passed]").inner_text() == "2"
    assert page.locator("[data-testid=stat-best]").inner_text() == "1.05×"
    # Bars are sized by JS from data attributes (no inline styles in the markup).
    width = page.locator(".verdict-mix .fill").first.evaluate("el => el.style.width")
    assert width.endswith("%") and width != "0.0%"
    assert page.console_errors == []
    screenshot(page, "task-page")

    page.click("[data-testid=all-submissions]")
    page.wait_for_url("**/tasks/add/submissions/")
    assert page.locator("[data-testid=submission-table] tbody tr[data-submission]").count() == 3
    screenshot(page, "task-submissions")
    # Pick A and B in the list and compare them.
    page.locator("input[name=a]").nth(0).check()
    page.locator("input[name=b]").nth(1).check()
    page.click("[data-testid=compare-selected]")
    page.wait_for_url("**/submissions/compare/?a=*&b=*")
    expect(page.locator("[data-testid=diff-file]")).to_have_count(1)
    wrong = Submission.objects.get(evaluations__verdict="wrong_answer")
    page.goto(f"{live_server.url}/submissions/{wrong.pk}/")
    expect(page.locator("#evaluation")).to_have_attribute("data-verdict", "wrong_answer")
    expect(page.locator("[data-testid=cases] tr.row-bad")).to_have_count(1)
    screenshot(page, "submission-wrong-answer")
    page.goto(live_server.url + "/")
    screenshot(page, "home")
    assert page.console_errors == []
