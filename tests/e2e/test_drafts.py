"""Drafts survive (issue #22): what a person types in the submit editor is kept per task and path
across reloads and navigation, a form re-shown with an error keeps the server's copy, and
"Reset to template" is the way back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_submit_flow import _log_in
from tests.platform.factories import make_task


def _editor_text(page, field: str = "id_kernel") -> str:
    return page.evaluate(f"document.getElementById('{field}').value")


def _type(page, text: str, field: str = "id_kernel") -> None:
    page.locator(f".cm-editor[data-editor-for={field}] .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_draft_survives_a_reload_and_navigation_and_resets(live_server, page, screenshot):
    task = make_task("add")
    template = task.current_version.template_kernel
    submit = f"/tasks/{task.slug}/submit/"
    _log_in(page, live_server.url, submit)
    expect(page.locator(".cm-editor[data-editor-for=id_kernel]")).to_be_visible()
    _type(page, "\n// my tiling idea")
    page.reload()
    expect(page.locator(".cm-editor[data-editor-for=id_kernel]")).to_be_visible()
    assert _editor_text(page).endswith("// my tiling idea")
    page.goto(live_server.url + "/leaderboard/")
    page.goto(live_server.url + submit)
    expect(page.locator(".cm-editor[data-editor-for=id_kernel]")).to_be_visible()
    assert _editor_text(page).endswith("// my tiling idea")
    # the other path keeps its own draft
    page.locator("label.seg:has(input[value=host_device])").click()
    _type(page, "\n// host path only")
    page.locator("label.seg:has(input[value=device_only])").click()
    assert _editor_text(page).endswith("// my tiling idea") and "host path only" not in _editor_text(page)
    screenshot(page, "submit-draft-restored")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-reset-editor=id_kernel]").click()
    assert _editor_text(page) == template
    page.reload()
    expect(page.locator(".cm-editor[data-editor-for=id_kernel]")).to_be_visible()
    assert _editor_text(page) == template  # the reset is what is kept
    assert page.console_errors == []
