"""Tasks (with the prompt), Models and Runs (with progress and pass@k so far)."""

import pytest
from rest_framework.test import APIClient

from submissions.models import EvalStatus, Evaluation, LanguageModel, Run, Submission
from tests.platform.factories import make_task

KERNEL = "extern \"C\" __global__ __aicore__ void k() {}\n"


def test_task_list_and_filters(api, db):
    make_task("add")
    make_task("softmax", level=2)
    retired = make_task("old")
    retired.retired = True
    retired.save()
    data = api.get("/api/v1/tasks/").json()
    assert data["count"] == 2
    assert [t["slug"] for t in data["results"]] == ["add", "softmax"]
    add = data["results"][0]
    assert add["url"] == "http://testserver/api/v1/tasks/add/"
    assert add["paths"] == ["device_only", "host_device"] and add["version"].startswith("add-v1")
    assert [t["slug"] for t in api.get("/api/v1/tasks/", {"level": 2}).json()["results"]] == ["softmax"]
    assert api.get("/api/v1/tasks/", {"level": 9}).status_code == 400
    assert api.get("/api/v1/tasks/", {"limit": 1}).json()["next"]
    assert api.get("/api/v1/tasks/old/").status_code == 404


def test_task_detail_has_spec_templates_and_prompt(api, task):
    data = api.get("/api/v1/tasks/add/").json()
    assert data["api_desc"] == "# add"
    assert data["template_kernel"] == "// template\n"
    # "add" is not in the suite on disk, so the prompt falls back to specification + template
    assert "# add" in data["prompt"] and "// template" in data["prompt"]
    assert set(data["prompts"]) == {"device_only", "host_device"}
    assert api.get("/api/v1/tasks/missing/").json()["code"] == "not_found"


def test_register_and_list_models(api, other_user):
    response = api.post("/api/v1/models/", {"name": "tiny-coder", "base_model": "Qwen2.5-Coder-7B",
                                            "training_stage": "sft", "parameters": "7B",
                                            "link": "https://example.org/m"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["owner"] == "ada" and response.json()["training_stage"] == "sft"
    LanguageModel.objects.create(owner=other_user, name="not-mine")
    assert [m["name"] for m in api.get("/api/v1/models/").json()["results"]] == ["tiny-coder"]
    again = api.post("/api/v1/models/", {"name": "tiny-coder"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "name_taken"
    bad = api.post("/api/v1/models/", {"name": "x", "training_stage": "rlhf"}, format="json")
    assert bad.status_code == 400 and "training_stage" in bad.json()["fields"]
    dpo = api.post("/api/v1/models/", {"name": "tiny-dpo", "training_stage": "sft_dpo"}, format="json")
    assert dpo.status_code == 201 and dpo.json()["training_stage"] == "sft_dpo"  # the paper's SFT -> DPO


def test_create_and_list_runs(api, user, other_user):
    model = LanguageModel.objects.create(owner=user, name="m")
    response = api.post("/api/v1/runs/", {"model": model.pk, "name": "k4-t0.8", "samples_per_task": 4,
                                          "decoding": {"temperature": 0.8, "top_p": 0.95}}, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["samples_per_task"] == 4 and data["decoding"]["top_p"] == 0.95
    assert data["url"] == f"http://testserver/api/v1/runs/{data['id']}/"
    assert [r["id"] for r in api.get("/api/v1/runs/").json()["results"]] == [data["id"]]
    theirs = LanguageModel.objects.create(owner=other_user, name="theirs")
    response = api.post("/api/v1/runs/", {"model": theirs.pk, "name": "r"}, format="json")
    assert response.status_code == 404 and response.json()["code"] == "unknown_model"
    response = api.post("/api/v1/runs/", {"model": model.pk, "name": "r", "samples_per_task": 0}, format="json")
    assert response.status_code == 400 and "samples_per_task" in response.json()["fields"]


def _sample(run, task, index, *, status=EvalStatus.DONE, compiled=True, passed=False):
    submission = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                           kernel_source=KERNEL, sha256="0" * 64, run=run, sample_index=index)
    Evaluation.objects.create(submission=submission, toolchain=run.toolchain, status=status,
                              compiled=compiled if status == EvalStatus.DONE else None,
                              passed=passed if status == EvalStatus.DONE else None,
                              verdict=("passed" if passed else "wrong_answer") if status == EvalStatus.DONE else "")


def test_run_progress_and_pass_at_k(api, user, db):
    add, relu = make_task("add"), make_task("relu")
    run = Run.objects.create(model=LanguageModel.objects.create(owner=user, name="m"), name="k2", samples_per_task=2)
    # add: 4 evaluated, 1 passed → pass@1 = 0.25, pass@2 = 1 − C(3,2)/C(4,2) = 0.5
    _sample(run, add, 0, passed=True)
    _sample(run, add, 1)
    _sample(run, add, 2, compiled=False)
    _sample(run, add, 3)
    # relu: 1 evaluated (passed), 1 queued, 1 infrastructure failure → pass@2 not yet defined
    _sample(run, relu, 0, passed=True)
    _sample(run, relu, 1, status=EvalStatus.QUEUED)
    _sample(run, relu, 2, status=EvalStatus.FAILED)
    data = api.get(f"/api/v1/runs/{run.pk}/").json()
    progress = data["progress"]
    tasks = {t["task"]: t for t in progress["tasks"]}
    assert tasks["add"] | {} == {"task": "add", "submitted": 4, "pending": 0, "evaluated": 4, "failed": 0,
                                 "compiled": 3, "passed": 1, "pass_at_1": 0.25, "pass_at_k": 0.5,
                                 "split": "train"}
    assert tasks["relu"]["evaluated"] == 1 and tasks["relu"]["pending"] == 1 and tasks["relu"]["failed"] == 1
    assert tasks["relu"]["pass_at_1"] == 1.0 and tasks["relu"]["pass_at_k"] is None
    assert progress["k"] == 2 and progress["submitted"] == 7 and progress["tasks_complete"] == 1
    assert progress["pass_at_1"] == pytest.approx((0.25 + 1.0) / 2)
    assert progress["pass_at_k"] == pytest.approx(0.5)


def test_run_detail_of_unknown_run_is_404(api, db):
    assert api.get("/api/v1/runs/424242/").status_code == 404


def test_runs_are_readable_by_other_users(api, other_user, make_key):
    run = Run.objects.create(model=LanguageModel.objects.create(owner=other_user, name="public-m"), name="r")
    assert api.get(f"/api/v1/runs/{run.pk}/").status_code == 200
    assert APIClient().get(f"/api/v1/runs/{run.pk}/").status_code == 401


def test_task_prompt_comes_from_the_prompt_builder_for_suite_tasks(api, db, tmp_path):
    import shutil

    from bench_runner import prompt as builder
    from bench_runner import tasks as suite
    from tasks.services import task_sync_from_suite

    # A suite of one real task, synced like `manage.py sync_tasks` does.
    shutil.copytree(suite.suite_dir() / "add_fp16_static", tmp_path / "add_fp16_static")
    report = task_sync_from_suite(root=tmp_path)
    assert report.created == ["add_fp16_static"], report
    data = api.get("/api/v1/tasks/add_fp16_static/").json()
    on_disk = suite.get_task("add_fp16_static", root=tmp_path)
    assert set(data["prompts"]) == set(on_disk.paths)
    for path in on_disk.paths:
        assert data["prompts"][path] == builder.build_prompt(on_disk, path)
    assert data["prompt"] == data["prompts"]["device_only"]
