"""Release pages: list, the form with its preview, progress polling that stops, browsing."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.models import Permission

from releases import services
from releases.models import Release

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator(seeded, client):
    user = seeded["users"]["rev"]
    user.user_permissions.add(Permission.objects.get(codename="curate", content_type__app_label="releases"))
    client.force_login(user)
    return user


def test_pages_build_progress_and_browse(curator, client, django_capture_on_commit_callbacks):
    assert client.get("/releases/").status_code == 200
    page = client.get("/releases/new/")
    assert page.status_code == 200 and b'name="subsets"' in page.content
    preview = client.get("/releases/preview/?subsets=doc_qa&subsets=code_cot&levels=1&validation_percent=10")
    assert preview.status_code == 200 and b"8 records" in preview.content and b"First <code>code_cot</code>" \
        in preview.content
    bad = client.get("/releases/preview/?validation_percent=90")
    assert b"validation_percent" in bad.content
    with mock.patch.object(services, "release_send") as send, django_capture_on_commit_callbacks(execute=True):
        r = client.post("/releases/new/", {"title": "Web", "subsets": ["code_cot", "dpo"], "levels": ["1"],
                                            "validation_percent": "0", "dpo_cap_per_task": "3"})
    release = Release.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/releases/{release.number}/"
    send.assert_called_once_with(release.pk)
    assert release.filters["dpo_cap_per_task"] == 3 and release.filters["include_eval_tasks"] is False

    polling = client.get(f"/releases/{release.number}/progress/?was=queued")
    assert b"hx-trigger" in polling.content and "HX-Refresh" not in polling
    services.release_build(release.pk)
    done = client.get(f"/releases/{release.number}/progress/?was=queued")
    assert b"hx-trigger" not in done.content and done["HX-Refresh"] == "true"
    detail = client.get(f"/releases/{release.number}/")
    assert b"Download zip" in detail.content and b"code_cot/train.jsonl" in detail.content
    zip_response = client.get(f"/releases/{release.number}/download/")
    assert zip_response["Content-Type"] == "application/zip"
    browse = client.get(f"/releases/{release.number}/dpo/train/")
    assert browse.status_code == 200 and b"rejected (wrong_answer)" in browse.content
    assert b"Records 1\xe2\x80\x9310 of 12" in browse.content
    second = client.get(f"/releases/{release.number}/dpo/train/?offset=10", HTTP_HX_REQUEST="true")
    assert b"Records 11\xe2\x80\x9312 of 12" in second.content and b"<nav class=\"tabs\">" not in second.content
    assert client.get(f"/releases/{release.number}/dpo/test/").status_code == 404


def test_only_curators_build(seeded, client):
    client.force_login(seeded["users"]["lab"])
    assert client.get("/releases/").status_code == 200
    assert client.get("/releases/new/").status_code == 403
    assert client.get("/releases/preview/").status_code == 403
    client.logout()
    assert client.get("/releases/").status_code == 302
