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
