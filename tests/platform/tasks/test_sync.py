"""manage.py sync_tasks mirrors a suite on disk: versions, retirement, odd values, bad folders."""

import io
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from bench_runner.tasks import DEFAULT_SUITE_DIR
from tasks.models import Task, TaskVersion
from tasks.services import task_sync_from_suite

SAMPLE = "relu_fp32_dynamic"
STATIC = SAMPLE + "_static"  # derived from the same folder's [extra] static_case


@pytest.fixture
def suite(tmp_path) -> Path:
    root = tmp_path / "suite"
    root.mkdir()
    shutil.copytree(DEFAULT_SUITE_DIR / SAMPLE, root / SAMPLE)
    return root


@pytest.mark.django_db
def test_sync_creates_then_versions_then_retires(suite):
    report = task_sync_from_suite(root=suite)
    assert report.created == [SAMPLE, STATIC] and not report.errors
    static = Task.objects.get(slug=STATIC)
    assert static.shape_mode == "static" and len(static.current_version.spec["cases"]) == 1
    assert static.current_version.spec["variant_of"] == SAMPLE
    assert static.current_version.expert_kernel and "Static variant of" in static.current_version.api_desc
    task = Task.objects.get(slug=SAMPLE)
    first = task.current_version
    assert first.template_kernel and first.expert_kernel and "max(x[i], 0)" in first.api_desc
    assert task.paths == ["device_only", "host_device"] and task.dtypes == ["float32"]

    assert task_sync_from_suite(root=suite).unchanged == [SAMPLE, STATIC]

    api_desc = suite / SAMPLE / "api_desc.md"
    api_desc.write_text(api_desc.read_text() + "\nOne more sentence.\n")
    assert task_sync_from_suite(root=suite).updated == [SAMPLE, STATIC]
    task.refresh_from_db()
    assert task.current_version_id != first.id
    assert TaskVersion.objects.filter(task=task).count() == 2  # the old version stays readable

    shutil.rmtree(suite / SAMPLE)
    assert sorted(task_sync_from_suite(root=suite).retired) == [SAMPLE, STATIC]
    assert Task.objects.get(slug=SAMPLE).retired and Task.objects.get(slug=STATIC).retired


@pytest.mark.django_db
def test_a_folder_that_breaks_keeps_its_tasks_and_their_static_variant(suite):
    task_sync_from_suite(root=suite)
    toml = suite / SAMPLE / "task.toml"
    toml.write_text(toml.read_text().replace("level = 1", 'level = "one"'))
    report = task_sync_from_suite(root=suite)
    assert report.errors and report.retired == []
    assert not Task.objects.filter(retired=True).exists()


@pytest.mark.django_db
def test_sync_stores_infinite_attributes_as_strings(suite):
    toml = suite / SAMPLE / "task.toml"
    toml.write_text(toml.read_text().replace("[[cases]]", "[attributes]\nfloor = -inf\n\n[[cases]]", 1))
    report = task_sync_from_suite(root=suite)
    assert not report.errors, report.errors
    spec = Task.objects.get(slug=SAMPLE).current_version.spec
    assert spec["attributes"]["floor"] == "-inf"


@pytest.mark.django_db
def test_malformed_task_is_reported_and_skipped(suite):
    broken = suite / "broken_task"
    shutil.copytree(suite / SAMPLE, broken)
    toml = broken / "task.toml"
    toml.write_text(toml.read_text().replace(f'slug = "{SAMPLE}"', 'slug = "broken_task"').replace(
        "level = 1", 'level = "one"'))
    out, err = io.StringIO(), io.StringIO()
    call_command("sync_tasks", "--suite-dir", str(suite), stdout=out, stderr=err)
    assert "level" in err.getvalue()
    assert "2 in suite" in out.getvalue()  # the good folder and its static variant
    assert not Task.objects.filter(slug="broken_task").exists()


@pytest.mark.django_db
def test_a_large_case_shows_its_own_run_limit_on_the_task_page(tmp_path, client):
    root = tmp_path / "suite"
    shutil.copytree(DEFAULT_SUITE_DIR / "matmul_fp16", root / "matmul_fp16")
    assert not task_sync_from_suite(root=root).errors
    html = client.get("/tasks/matmul_fp16/").content.decode()
    rows = html.split('data-testid="cases"', 1)[1].split("</table>", 1)[0].split("<tr>")[2:]
    limits = {row.split('<td class="mono">', 1)[1].split("<", 1)[0]: row.split('data-testid="run-limit">', 1)[1]
              for row in rows}
    assert limits["m4096_k4096_n4096"].startswith("240 s"), limits
    assert all("default" in cell for name, cell in limits.items() if name != "m4096_k4096_n4096"), limits
