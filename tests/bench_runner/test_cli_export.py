"""`akgen export` against a live platform: start a build, follow its progress, download, check
and unpack it; and the command stays free of Django."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import uuid
from unittest import mock

import pytest
from django.contrib.auth.models import Permission
from django.db import connection

from accounts.services import token_create
from bench_runner import cli
from releases import services
from tests.platform.releases.conftest import EVAL_TASK, seed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def platform(live_server, settings, tmp_path):
    settings.AKGEN_RATE_KEY_PREFIX = f"akgen:test:{uuid.uuid4().hex[:12]}:"
    settings.AKGEN_RELEASE_EVAL_TASKS = [EVAL_TASK]
    settings.AKGEN_RELEASES_DIR = str(tmp_path / "releases")
    data = seed()
    curator = data["users"]["rev"]
    curator.user_permissions.add(Permission.objects.get(codename="curate", content_type__app_label="releases"))
    key = token_create(user=curator, name="cli", scopes=["export"]).key

    def build_in_a_worker(release_id: int) -> None:
        def work():
            try:
                services.release_build(release_id)
            finally:
                connection.close()

        threading.Thread(target=work, daemon=True).start()

    with mock.patch.object(services, "release_send", side_effect=build_in_a_worker):
        yield live_server.url, key


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_export_builds_downloads_and_unpacks(platform, tmp_path):
    url, key = platform
    out = tmp_path / "ascend-cot"
    code, stdout, stderr = _run("export", "--url", url, "--token", key, "--out", str(out), "--levels", "1,2",
                                "--subsets", "code_cot,dpo,doc_qa", "--validation-percent", "0", "--poll", "0.2")
    assert code == 0, stderr
    assert "release v1 queued" in stderr and "v1 ready" in stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["filters"]["levels"] == [1, 2] and set(manifest["subsets"]) == {"code_cot", "dpo", "doc_qa"}
    assert (out / "code_cot" / "train.jsonl").exists() and (out / "README.md").read_text().startswith("---")
    assert "release v1:" in stdout and "code_cot" in stdout

    # The trainer's reader accepts what was unpacked.
    from trainer.data import open_release, read_split

    release = open_release(out)
    assert len(read_split(release, "dpo", "train")) == manifest["subsets"]["dpo"]["train"]

    # Fetch the same release again into a non-empty folder: refused without --force.
    code, _, stderr = _run("export", "--url", url, "--token", key, "--out", str(out), "--release", "1")
    assert code == 2 and "not empty" in stderr
    code, _, _ = _run("export", "--url", url, "--token", key, "--out", str(out), "--release", "1", "--force")
    assert code == 0

    code, stdout, _ = _run("export", "--url", url, "--token", key, "--out", str(out), "--preview",
                           "--subsets", "doc_qa")
    assert code == 0 and stdout.split() == ["doc_qa", "4", "total", "4"]
    code, _, stderr = _run("export", "--url", url, "--token", key, "--out", str(out), "--levels", "9")
    assert code == 2 and "HTTP 400" in stderr and "levels" in stderr
    code, _, stderr = _run("export", "--url", url, "--token", "akg_nope_nope", "--out", str(out), "--release", "1")
    assert code == 2 and "HTTP 401" in stderr


def test_export_client_does_not_import_django():
    code = ("import sys, bench_runner.cli, bench_runner.export_client; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
