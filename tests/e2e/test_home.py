"""The landing page and /healthz in a real browser."""

import json

import pytest

from tasks.models import Task

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_home_page_renders_counts_and_loads_bundles(live_server, page, screenshot):
    Task.objects.create(slug="add", title="Add", level=1, category="elementwise", shape_mode="static")
    Task.objects.create(slug="softmax", title="Softmax", level=2, category="nn", shape_mode="dynamic")
    page.goto(live_server.url + "/")
    assert page.locator("[data-testid=level-1-count]").inner_text() == "1"
    assert page.locator("[data-testid=level-2-count]").inner_text() == "1"
    # The esbuild bundle loaded and exposed htmx; CSP allowed it and no script failed.
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.console_errors == []
    path = screenshot(page, "home")
    assert path.stat().st_size > 10_000

    page.click("text=Browse 2 tasks")
    page.wait_for_url("**/tasks/")
    assert page.locator("#task-table tbody tr").count() == 2


@pytest.mark.django_db(transaction=True)
def test_healthz_in_browser_is_json(live_server, page):
    response = page.goto(live_server.url + "/healthz")
    assert response.status == 200
    body = json.loads(page.locator("body").inner_text())
    assert set(body) == {"status"}  # the details are for staff and monitors with the health token
