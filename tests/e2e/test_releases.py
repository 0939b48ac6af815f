"""A curator builds an Ascend-CoT release in the browser: the form previews counts live, the
build runs in a worker while the page polls its progress, then the zip downloads and the
records can be browsed. Screenshots for review."""

from __future__ import annotations

import hashlib
import threading
import uuid
import zipfile
from unittest import mock

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from playwright.sync_api import expect

from releases import services
from tests.platform.releases.conftest import EVAL_TASK, seed

pytestmark = pytest.mark.browser
PASSWORD = "pw-releases-correct-horse"


@pytest.fixture(autouse=True)
def quick(settings, tmp_path):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
    settings.AKGEN_RELEASE_EVAL_TASKS = [EVAL_TASK]
    settings.AKGEN_RELEASES_DIR = str(tmp_path / "releases")


def _worker_after(delay: float):
    """Stands in for the releases queue: builds in another thread, a little later, so the page
    is seen polling first."""
    def send(release_id: int) -> None:
        def work():
            try:
                threading.Event().wait(delay)
                services.release_build(release_id)
            finally:
                connection.close()

        threading.Thread(target=work, daemon=True).start()

    return send


@pytest.mark.django_db(transaction=True)
def test_build_and_download_a_release(live_server, page, screenshot, tmp_path):
    data = seed()
    curator = data["users"]["rev"]
    curator.set_password(PASSWORD)
    curator.save()
    curator.user_permissions.add(Permission.objects.get(codename="curate", content_type__app_label="releases"))

    page.goto(live_server.url + "/accounts/login/?next=/releases/")
    page.fill("input[name=username]", "rev")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url("**/releases/")
    page.get_by_test_id("new-release").click()

    preview = page.get_by_test_id("preview")
    expect(preview.get_by_test_id("preview-total")).to_contain_text("records")
    page.fill("input[name=title]", "Ascend-CoT nightly")
    page.check("input[name=levels][value='1']")
    expect(preview.locator("tr[data-subset=code_cot] td.num")).to_have_text("4")
    expect(preview).to_contain_text("1 evaluation task of the benchmark left out: softmax")
    screenshot(page, "releases-new")

    with mock.patch.object(services, "release_send", side_effect=_worker_after(1.5)):
        page.get_by_test_id("build").click()
        page.wait_for_url("**/releases/1/")
        expect(page.get_by_test_id("progress")).to_have_attribute("data-status", "queued")
        expect(page.get_by_test_id("download")).to_be_visible(timeout=30_000)  # the page reloaded when done
    expect(page.get_by_test_id("progress")).to_have_attribute("data-status", "ready")
    expect(page.get_by_test_id("subsets")).to_contain_text("code_cot")
    screenshot(page, "releases-detail")

    with page.expect_download() as info:
        page.get_by_test_id("download").click()
    path = tmp_path / "release.zip"
    info.value.save_as(path)
    sha = page.get_by_test_id("sha256").inner_text().strip()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == sha
    names = zipfile.ZipFile(path).namelist()
    assert "ascend-cot-v1/manifest.json" in names and "ascend-cot-v1/code_cot/train.jsonl" in names

    page.get_by_test_id("browse-dpo-train").click()
    records = page.get_by_test_id("records")
    expect(records.locator("article.rel-record").first).to_contain_text("rejected (wrong_answer)")
    screenshot(page, "releases-browse")
    assert page.console_errors == []
