"""POST/GET /api/v1/submissions/: accepted, queued after commit (evaluation_send mocked), visible
only to whom it should be, idempotent per run sample, and every error as JSON with its status."""

import json

import pytest
from rest_framework.test import APIClient

from submissions.models import EvalStatus, Evaluation, LanguageModel, Run, Submission

KERNEL = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void add_custom() {}\n'
URL = "/api/v1/submissions/"


@pytest.fixture
def run(user):
    model = LanguageModel.objects.create(owner=user, name="tiny-coder")
    return Run.objects.create(model=model, name="k4", samples_per_task=4)


def body(**kwargs):
    return {"task": "add", "path": "device_only", "kernel": KERNEL} | kwargs


def test_submit_returns_201_with_id_status_url_and_queues_after_commit(
        api, task, user, no_sends, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(URL, body(), format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert set(data) == {"id", "status", "url", "created"}
    assert data["status"] == "queued" and data["created"] is True
    assert data["url"] == f"http://testserver/api/v1/submissions/{data['id']}/"
    submission = Submission.objects.get(pk=data["id"])
    assert submission.author == user and submission.visibility == "public"
    no_sends.assert_called_once()
    assert no_sends.call_args.args[0].submission_id == submission.pk


def test_get_shows_status_verdict_and_result(api, task):
    sid = api.post(URL, body(), format="json").json()["id"]
    response = api.get(f"{URL}{sid}/")
    assert response.status_code == 200
    data = response.json()
    assert (data["status"], data["verdict"], data["result"]) == ("queued", "", None)
    assert data["queue_position"] == 1
    assert data["task"] == "add" and data["kernel"] == KERNEL and data["host"] is None
    Evaluation.objects.filter(submission_id=sid).update(
        status=EvalStatus.DONE, verdict="wrong_answer", compiled=True, passed=False,
        result={"verdict": "wrong_answer", "cases": [{"name": "c0", "passed": False}]})
    data = api.get(f"{URL}{sid}/").json()
    assert (data["status"], data["verdict"]) == ("done", "wrong_answer")
    assert data["queue_position"] is None
    assert data["result"]["cases"][0]["name"] == "c0"
    assert data["evaluations"][0]["compiled"] is True


def test_host_device_path_keeps_the_host_source(api, task):
    response = api.post(URL, body(path="host_device", host="int main() { return 0; }"), format="json")
    assert response.status_code == 201
    assert api.get(response.json()["url"]).json()["host"] == "int main() { return 0; }"


def test_private_submission_is_hidden_from_others(api, task, user, other_user, make_key):
    sid = api.post(URL, body(visibility="private"), format="json").json()["id"]
    public = api.post(URL, body(), format="json").json()["id"]
    assert api.get(f"{URL}{sid}/").status_code == 200  # the author
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {make_key(other_user, scopes=['read'])}")
    response = stranger.get(f"{URL}{sid}/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert stranger.get(f"{URL}{public}/").status_code == 200
    assert stranger.get(URL).json()["count"] == 0  # the list holds only your own
    other_user.is_staff = True
    other_user.save()
    assert stranger.get(f"{URL}{sid}/").status_code == 200  # staff see drafts


def test_run_samples_are_idempotent(api, task, run, no_sends, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = api.post(URL, body(run=run.pk, sample_index=2), format="json")
        again = api.post(URL, body(run=run.pk, sample_index=2, kernel=KERNEL + "// retry"), format="json")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and again.json()["created"] is False
    assert Submission.objects.filter(run=run).count() == 1
    assert Submission.objects.get(run=run).kernel_source == KERNEL
    assert no_sends.call_count == 1


def test_list_filters_by_run(api, task, run):
    api.post(URL, body(run=run.pk, sample_index=0), format="json")
    api.post(URL, body(), format="json")
    assert api.get(URL).json()["count"] == 2
    data = api.get(URL, {"run": run.pk}).json()
    assert data["count"] == 1 and data["results"][0]["sample_index"] == 0
    assert api.get(URL, {"run": "x"}).status_code == 400


def test_brief_listing_leaves_results_out(api, task, run):
    from submissions.models import Evaluation

    api.post(URL, body(run=run.pk, sample_index=0), format="json")
    Evaluation.objects.update(status="done", verdict="passed", result={"verdict": "passed", "big": "x" * 1000})
    full = api.get(URL, {"run": run.pk}).json()["results"][0]
    brief = api.get(URL, {"run": run.pk, "brief": "true"}).json()["results"][0]
    assert full["result"]["big"] and brief["result"] is None
    assert (brief["verdict"], brief["status"], brief["sample_index"]) == ("passed", "done", 0)


def test_someone_elses_run_is_404(api, task, other_user):
    theirs = Run.objects.create(model=LanguageModel.objects.create(owner=other_user, name="theirs"), name="r")
    response = api.post(URL, body(run=theirs.pk, sample_index=0), format="json")
    assert response.status_code == 404
    assert response.json() == {"code": "unknown_run", "message": f"You have no run with id {theirs.pk}.",
                               "fields": {"run": "not one of your runs"}}
    assert not Submission.objects.exists()


@pytest.mark.parametrize(
    "payload, status, code, field",
    [
        (body(task="nope"), 404, "unknown_task", "task"),
        (body(sample_index=1), 400, "invalid_sample", "sample_index"),
        (body(path="sideways"), 400, "invalid", "path"),
        (body(kernel=""), 400, "missing_source", "kernel"),
        (body(kernel="int a;\x00"), 400, "invalid", "kernel"),  # DRF refuses NUL first
        (body(path="host_device"), 400, "missing_source", "host"),
        (body(kernel="x" * (64 * 1024 + 1)), 413, "source_too_large", "kernel"),
        ({"path": "device_only", "kernel": KERNEL}, 400, "invalid", "task"),
        (body(kernel=42), 400, "invalid", "kernel"),
        (body(sample_index=-1), 400, "invalid", "sample_index"),
        (body(visibility="secret"), 400, "invalid", "visibility"),
        (["not", "an", "object"], 400, "invalid", "_"),
    ],
)
def test_bad_submissions_get_json_errors(api, task, payload, status, code, field):
    response = api.post(URL, payload, format="json")
    assert response.status_code == status, response.content
    data = response.json()
    assert data["code"] == code and data["message"]
    assert field in data["fields"]
    assert not Submission.objects.exists()


def test_sample_index_beyond_k_is_rejected(api, task, run):
    response = api.post(URL, body(run=run.pk, sample_index=4), format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_sample"
    assert "0..3" in response.json()["message"]


def test_malformed_json_is_400(api, task):
    response = api.post(URL, '{"task": "add", "kernel": ', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"
    response = api.post(URL, '{"task": NaN}', content_type="application/json")
    assert response.status_code == 400


def test_body_over_the_request_limit_is_413_json(api, task, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = api.post(URL, body(kernel="x" * 20_000), format="json")
    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"
    assert "10000 bytes" in response.json()["message"]


def test_wrong_content_type_method_and_path(api, task):
    response = api.post(URL, "task=add", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"
    response = api.delete(URL)
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
    response = api.get("/api/v1/nothing-here/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert api.get(f"{URL}999999/").status_code == 404
    response = api.post("/api/v1/submissions", body(), format="json")
    assert response.status_code == 404 and "trailing slash" in response.json()["message"]
    assert "trailing slash" not in api.get("/api/v1/nope").json()["message"]


def test_sources_count_in_utf8_bytes(api, task):
    kernel = "// " + "é" * (32 * 1024)  # 64 KiB + 3 bytes in UTF-8, fewer characters
    response = api.post(URL, body(kernel=kernel), format="json")
    assert response.status_code == 413
    assert json.loads(response.content)["fields"] == {"kernel": "at most 65536 bytes"}


def test_lone_surrogates_are_refused(api, task):
    response = api.post(URL, '{"task": "add", "path": "device_only", "kernel": "int a; \\ud800"}',
                        content_type="application/json")
    assert response.status_code == 400
    assert response.json()["fields"]["kernel"].startswith("Not valid UTF-8")


def test_a_samples_reasoning_is_stored_served_and_bounded(api, task, run):
    """The model's think block travels with its kernel (issue #20): stored, served back, never
    part of the kernel's hash; one over the limit is a 413 that stores nothing."""
    from submissions.intake import MAX_REASONING_BYTES

    thought = "Tile 2048 elements per core; double-buffer the queues.\n" * 3
    sid = api.post(URL, body(reasoning=thought, run=run.pk, sample_index=0), format="json").json()["id"]
    assert Submission.objects.get(pk=sid).reasoning == thought
    assert api.get(f"{URL}{sid}/").json()["reasoning"] == thought
    plain = api.post(URL, body(), format="json").json()["id"]
    assert Submission.objects.get(pk=plain).sha256 == Submission.objects.get(pk=sid).sha256  # code only
    assert api.get(f"{URL}{plain}/").json()["reasoning"] == ""
    assert api.get("/api/v1/me/").json()["max_reasoning_bytes"] == MAX_REASONING_BYTES
    before = Submission.objects.count()
    big = api.post(URL, body(reasoning="x" * (MAX_REASONING_BYTES + 1)), format="json")
    assert big.status_code == 413 and big.json()["code"] == "reasoning_too_large", big.content
    batch = api.post(f"{URL}batch/", {"submissions": [body(reasoning="y" * (MAX_REASONING_BYTES + 1)),
                                                      body(reasoning="ok", run=run.pk, sample_index=1)]},
                     format="json").json()["results"]
    assert [r["ok"] for r in batch] == [False, True] and batch[0]["error"]["code"] == "reasoning_too_large"
    assert Submission.objects.count() == before + 1
    assert Submission.objects.get(pk=batch[1]["id"]).reasoning == "ok"
    nul = api.post(URL, body(reasoning="a\x00b"), format="json")
    assert nul.status_code == 400 and "reasoning" in nul.json()["fields"]
