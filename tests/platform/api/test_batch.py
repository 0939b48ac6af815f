"""POST /api/v1/submissions/batch/: each item accepted or refused on its own, idempotent per run
sample, all-good → 201, some bad → 207 with the reason of each failure."""

import pytest

from submissions.models import LanguageModel, Run, Submission

KERNEL = "extern \"C\" __global__ __aicore__ void k() {}\n"
URL = "/api/v1/submissions/batch/"


@pytest.fixture
def run(user):
    return Run.objects.create(model=LanguageModel.objects.create(owner=user, name="m"), name="k8",
                              samples_per_task=8)


def item(**kwargs):
    return {"task": "add", "path": "device_only", "kernel": KERNEL} | kwargs


def test_all_good_is_201_and_queues_each_after_commit(api, task, run, no_sends, django_capture_on_commit_callbacks):
    items = [item(run=run.pk, sample_index=i) for i in range(8)]
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(URL, {"submissions": items}, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["accepted"], data["failed"]) == (8, 0)
    assert [r["index"] for r in data["results"]] == list(range(8))
    assert all(r["ok"] and r["created"] and r["status_code"] == 201 and r["url"] for r in data["results"])
    assert Submission.objects.filter(run=run).count() == 8
    assert no_sends.call_count == 8


def test_repeating_a_batch_creates_nothing_new(api, task, run, no_sends):
    items = [item(run=run.pk, sample_index=i) for i in range(4)]
    first = api.post(URL, {"submissions": items}, format="json").json()
    again = api.post(URL, {"submissions": items + [item(run=run.pk, sample_index=4)]}, format="json")
    assert again.status_code == 201
    results = again.json()["results"]
    assert [r["created"] for r in results] == [False] * 4 + [True]
    assert [r["status_code"] for r in results] == [200] * 4 + [201]
    assert [r["id"] for r in results[:4]] == [r["id"] for r in first["results"]]
    assert Submission.objects.filter(run=run).count() == 5


def test_duplicates_inside_one_batch_collapse(api, task, run):
    response = api.post(URL, {"submissions": [item(run=run.pk, sample_index=0)] * 3}, format="json")
    ids = {r["id"] for r in response.json()["results"]}
    assert len(ids) == 1 and Submission.objects.count() == 1


def test_bad_items_do_not_lose_the_good_ones(api, task, run):
    items = [
        item(run=run.pk, sample_index=0),
        item(task="nope"),
        item(kernel="x" * (64 * 1024 + 1)),
        {"kernel": KERNEL},  # no task
        "not an object",
        item(run=run.pk, sample_index=99),
        item(path="host_device"),
        item(run=run.pk, sample_index=1),
    ]
    response = api.post(URL, {"submissions": items}, format="json")
    assert response.status_code == 207, response.content
    data = response.json()
    assert (data["accepted"], data["failed"]) == (2, 6)
    by_index = {r["index"]: r for r in data["results"]}
    assert by_index[0]["ok"] and by_index[7]["ok"]
    expected = {1: (404, "unknown_task"), 2: (413, "source_too_large"), 3: (400, "invalid"),
                4: (400, "invalid"), 5: (400, "invalid_sample"), 6: (400, "missing_source")}
    for index, (status, code) in expected.items():
        assert not by_index[index]["ok"]
        assert (by_index[index]["status_code"], by_index[index]["error"]["code"]) == (status, code), index
        assert by_index[index]["error"]["message"]
    assert "task" in by_index[3]["error"]["fields"]
    assert Submission.objects.count() == 2


def test_pending_cap_applies_item_by_item(api, task, settings):
    settings.AKGEN_MAX_PENDING_PER_USER = 3
    response = api.post(URL, {"submissions": [item() for _ in range(5)]}, format="json")
    assert response.status_code == 207
    codes = [(r["status_code"], r.get("error", {}).get("code")) for r in response.json()["results"]]
    assert codes == [(201, None)] * 3 + [(429, "too_many_pending")] * 2
    assert Submission.objects.count() == 3


def test_repeats_of_an_accepted_sample_do_not_count_against_the_cap(api, task, run, settings):
    settings.AKGEN_MAX_PENDING_PER_USER = 2
    items = [item(run=run.pk, sample_index=0), item(run=run.pk, sample_index=0), item(run=run.pk, sample_index=1),
             item(run=run.pk, sample_index=2), item(run=run.pk, sample_index=1)]
    results = api.post(URL, {"submissions": items}, format="json").json()["results"]
    assert [r["status_code"] for r in results] == [201, 200, 201, 429, 200]
    assert results[1]["id"] == results[0]["id"] and results[4]["id"] == results[2]["id"]
    assert [r.get("created") for r in results] == [True, False, True, None, False]
    assert Submission.objects.filter(run=run).count() == 2


@pytest.mark.parametrize("payload", [{}, {"submissions": []}, {"submissions": "x"}, [1, 2]])
def test_malformed_batches_are_400(api, task, payload):
    response = api.post(URL, payload, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_at_most_256_items(api, task):
    response = api.post(URL, {"submissions": [item()] * 257}, format="json")
    assert response.status_code == 400
    assert "256" in response.json()["message"]
    assert not Submission.objects.exists()


def test_a_full_batch_of_large_kernels_fits_the_request_limit(api, task, run, settings):
    settings.AKGEN_RATE_SUBMIT_PER_MIN = 10
    kernel = "// pad\n" + "x" * (30 * 1024)  # 30 KiB each, 256 of them ≈ 7.5 MiB
    items = [item(kernel=kernel + str(i)) for i in range(256)]
    response = api.post(URL, {"submissions": items}, format="json")
    assert response.status_code == 201, response.json().get("message")
    assert response.json()["accepted"] == 256
