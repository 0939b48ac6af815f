"""A second suite next to akgen's (e.g. NPUKernelBench imported by `akgen suite import-npukb`):
synced as its own suite, judged from its own folder, listed and ranked apart (issue #19)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench_runner.tasks import DEFAULT_SUITE_DIR
from leaderboard.selectors import BadFilter, Filters, filter_options
from submissions.models import EvalStatus, Evaluation, Submission
from tasks.models import Task
from tasks.services import task_sync_from_suite
from workers import actors, pipeline

pytestmark = pytest.mark.django_db

SOURCE = "abs_fp16"


@pytest.fixture
def extra_suite(tmp_path, monkeypatch) -> Path:
    """A suite folder "extra" with one task: a copy of abs_fp16 under another slug."""
    root = tmp_path / "extra"
    shutil.copytree(DEFAULT_SUITE_DIR / SOURCE, root / "extra_abs_fp16")
    toml = root / "extra_abs_fp16" / "task.toml"
    toml.write_text(toml.read_text().replace(f'slug = "{SOURCE}"', 'slug = "extra_abs_fp16"'))
    monkeypatch.setenv("AKGEN_SUITES", f"extra={root}")
    return root


def test_each_suite_syncs_and_retires_only_its_own_tasks(extra_suite, tmp_path):
    akgen = tmp_path / "akgen"
    akgen.mkdir()
    shutil.copytree(DEFAULT_SUITE_DIR / SOURCE, akgen / SOURCE)
    task_sync_from_suite(root=akgen)
    report = task_sync_from_suite(suite_name="extra")  # the folder comes from AKGEN_SUITES
    assert report.created == ["extra_abs_fp16", "extra_abs_fp16_static"] and not report.retired
    assert Task.objects.get(slug="extra_abs_fp16").suite == "extra"
    assert Task.objects.get(slug=SOURCE).suite == "akgen"
    # syncing akgen's folder again leaves the other suite's task alone
    assert task_sync_from_suite(root=akgen).retired == []
    assert not Task.objects.get(slug="extra_abs_fp16").retired
    # a slug belongs to one suite
    shutil.copytree(DEFAULT_SUITE_DIR / SOURCE, extra_suite / SOURCE)
    clash = task_sync_from_suite(suite_name="extra")
    assert any("already a task of suite 'akgen'" in e for e in clash.errors)
    assert Task.objects.get(slug=SOURCE).suite == "akgen"


def test_sync_command_names_the_missing_folder(monkeypatch):
    monkeypatch.delenv("AKGEN_SUITES", raising=False)
    with pytest.raises(CommandError, match="AKGEN_SUITES"):
        call_command("sync_tasks", "--suite", "npukb")


def test_a_worker_judges_the_task_from_its_suites_folder(extra_suite, settings, tmp_path, monkeypatch):
    settings.VAR_DIR = tmp_path
    monkeypatch.setattr(pipeline, "evaluation_send", lambda *_: None)
    task_sync_from_suite(suite_name="extra")
    task = Task.objects.get(slug="extra_abs_fp16")
    kernel = (extra_suite / "extra_abs_fp16" / "expert" / "kernel.cpp").read_text()
    sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                    kernel_source=kernel, sha256="e" * 64)
    ev = Evaluation.objects.create(submission=sub)
    actors.evaluation_process(ev.pk)
    ev.refresh_from_db()
    assert (ev.status, ev.verdict) == (EvalStatus.DONE, "passed"), ev.error


def test_boards_and_the_api_keep_suites_apart(extra_suite, django_user_model):
    from rest_framework.test import APIClient

    from accounts.services import token_create

    task_sync_from_suite(suite_name="extra")
    assert Filters.from_query({}).suite == "akgen"
    assert Filters.from_query({"suite": "extra"}).suite == "extra"
    with pytest.raises(BadFilter):
        Filters.from_query({"suite": "Not A Suite"})
    assert "extra" in filter_options()["suites"]
    user = django_user_model.objects.create_user("suites", password="x")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user, name='t', scopes=['read']).key}")
    rows = client.get("/api/v1/tasks/?suite=extra").json()["results"]
    assert {(r["slug"], r["suite"]) for r in rows} == {("extra_abs_fp16", "extra"), ("extra_abs_fp16_static", "extra")}
