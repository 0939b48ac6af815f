"""Releases through the service and the API: created queued, built by the worker's function,
numbered, immutable, downloadable; scopes and the curate permission enforced."""

from __future__ import annotations

import hashlib
import io
import json
import uuid
import zipfile
from unittest import mock

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from accounts.services import token_create
from releases import services
from releases.models import Release, ReleaseStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def limits(settings):
    settings.AKGEN_RATE_KEY_PREFIX = f"akgen:test:{uuid.uuid4().hex[:12]}:"
    settings.AKGEN_RATE_READ_PER_MIN = settings.AKGEN_RATE_READ_USER_PER_MIN = 10_000


@pytest.fixture
def sent():
    """Messages to the releases queue, recorded instead of sent (tests build them by hand)."""
    with mock.patch.object(services, "release_send") as send:
        yield send


def _curator(seeded):
    user = seeded["users"]["rev"]
    user.user_permissions.add(Permission.objects.get(codename="curate", content_type__app_label="releases"))
    return type(user).objects.get(pk=user.pk)


def test_create_then_build_in_the_worker(seeded, sent, django_capture_on_commit_callbacks):
    curator = _curator(seeded)
    with django_capture_on_commit_callbacks(execute=True):
        release = services.release_create(user=curator, data={"levels": "1,2", "validation_percent": 20},
                                          title="First")
    assert release.number == 1 and release.status == ReleaseStatus.QUEUED
    sent.assert_called_once_with(release.pk)
    assert release.filters["levels"] == [1, 2] and release.filters["subsets"][0] == "code_cot"

    built = services.release_build(release.pk)
    assert built.status == ReleaseStatus.READY, built.error
    assert built.records_done == built.total_records > 0 and built.percent == 100
    zip_path = services.release_zip(built)
    assert hashlib.sha256(zip_path.read_bytes()).hexdigest() == built.sha256
    names = zipfile.ZipFile(zip_path).namelist()
    assert "ascend-cot-v1/manifest.json" in names and "ascend-cot-v1/dpo/train.jsonl" in names
    assert services.release_build(release.pk) is None  # idempotent: a ready release is never rebuilt

    # The same filters again: a new number, the same data files byte for byte.
    with django_capture_on_commit_callbacks(execute=True):
        again = services.release_create(user=curator, data=dict(release.filters))
    services.release_build(again.pk)
    m1 = json.loads((services.release_folder(built) / "manifest.json").read_text())
    m2 = json.loads((services.release_folder(again) / "manifest.json").read_text())
    assert m2["version"] == 2 and m1["filters"] == m2["filters"]
    data = {k: v for k, v in m1["files"].items() if k.endswith(".jsonl") or k == "decontamination.json"}
    assert data == {k: m2["files"][k] for k in data}


def test_a_failed_build_says_why_and_leaves_no_files(seeded, sent):
    release = services.release_create(user=None, data={})
    with mock.patch("releases.builder.build", side_effect=RuntimeError("disk full")):
        failed = services.release_build(release.pk)
    assert failed.status == ReleaseStatus.FAILED and "disk full" in failed.error
    assert not services.release_folder(failed).exists() and not services.release_zip(failed).exists()


def test_preview_counts_match_the_build(seeded):
    p = services.preview({"validation_percent": 0})
    # api_fix: 6 human fixes + an automatic record for each training task's compile-error sample.
    assert p.counts["code_cot"] == 6 and p.counts["doc_qa"] == 4 and p.counts["api_fix"] == 12
    assert p.eval_tasks == ["softmax"] and [r["meta"]["subset"] for r in p.samples["dpo"]] == ["dpo", "dpo"]
    release = services.release_create(user=None, data={"validation_percent": 0})
    built = services.release_build(release.pk)
    for subset, n in p.counts.items():
        assert built.counts["subsets"][subset]["train"] <= n  # pairs and corrections: upper bounds
        if subset not in ("dpo", "dpo_perf", "kernel_fix"):
            assert built.counts["subsets"][subset]["train"] == n, subset


def _client(user, scopes):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user, name='t', scopes=scopes).key}")
    return client


def test_api_build_follow_download(seeded, sent):
    curator = _curator(seeded)
    api = _client(curator, ["export"])
    bad = api.post("/api/v1/releases/", {"filters": {"levels": [7]}}, format="json")
    assert bad.status_code == 400 and "levels" in json.dumps(bad.json()["fields"]), bad.json()
    r = api.post("/api/v1/releases/", {"title": "API", "filters": {"subsets": ["code_cot", "dpo"],
                                                                   "since": "2026-03-01"}}, format="json")
    assert r.status_code == 202, r.content
    body = r.json()
    assert body["status"] == "queued" and body["download_url"] is None
    assert body["filters"]["subsets"] == ["code_cot", "dpo"] and body["filters"]["since"] == "2026-03-01"
    number = body["number"]
    early = api.get(f"/api/v1/releases/{number}/download/")
    assert early.status_code == 409 and early.json()["code"] == "not_ready"

    services.release_build(Release.objects.get(number=number).pk)
    detail = api.get(body["url"]).json()
    assert detail["status"] == "ready" and detail["counts"]["subsets"]["code_cot"]["train"] >= 1
    download = api.get(detail["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"
    content = b"".join(download.streaming_content)
    assert hashlib.sha256(content).hexdigest() == detail["sha256"] == download["X-Checksum-SHA256"]
    assert zipfile.ZipFile(io.BytesIO(content)).read(f"ascend-cot-v{number}/README.md").startswith(b"---\n")
    listing = api.get("/api/v1/releases/").json()
    assert listing["count"] == 1 and listing["results"][0]["number"] == number

    preview = api.post("/api/v1/releases/preview/", {"filters": {"subsets": ["doc_qa"]}}, format="json")
    assert preview.status_code == 200 and preview.json()["counts"] == {"doc_qa": 4}
    assert api.get("/api/v1/releases/999/").status_code == 404


def test_api_scopes_and_permission(seeded, sent):
    curator = _curator(seeded)
    assert _client(curator, ["read", "submit"]).get("/api/v1/releases/").status_code == 403
    plain = _client(seeded["users"]["lab"], ["export"])
    assert plain.get("/api/v1/releases/").status_code == 200
    refused = plain.post("/api/v1/releases/", {}, format="json")
    assert refused.status_code == 403 and "curate" in refused.json()["message"]
    assert APIClient().get("/api/v1/releases/").status_code == 401
    assert not Release.objects.exists() and not sent.called


def test_actor_command_and_resend(seeded, sent):
    from django.core.management import call_command

    from releases.actors import QUEUE, build_release

    assert build_release.queue_name == QUEUE == "releases"
    first = services.release_create(user=None, data={"subsets": ["doc_qa"]})
    build_release.fn(first.pk)  # what a worker runs for the message
    first.refresh_from_db()
    assert first.status == ReleaseStatus.READY and first.counts["subsets"]["doc_qa"]["train"] >= 3

    stuck = services.release_create(user=None, data={"subsets": ["doc_qa"]})
    Release.objects.filter(pk=stuck.pk).update(status=ReleaseStatus.BUILDING)  # its worker died
    queued = services.release_create(user=None, data={"subsets": ["doc_qa"]})
    assert services.release_resend_unfinished(building_older_than_s=None) == 1
    sent.assert_called_with(queued.pk)
    assert services.release_resend_unfinished(building_older_than_s=0) == 2
    out = io.StringIO()
    call_command("build_release", number=stuck.number, stdout=out)
    assert "ready" in out.getvalue()
