"""Rate limits per token and per user (X-RateLimit-* headers, 429 + Retry-After) and the cap on
evaluations pending per user (429 too_many_pending)."""

import pytest
from rest_framework.test import APIClient

from submissions.models import EvalStatus, Evaluation, LanguageModel, Run, Submission

KERNEL = "extern \"C\" __global__ __aicore__ void k() {}\n"
URL = "/api/v1/submissions/"


def body(**kwargs):
    return {"task": "add", "path": "device_only", "kernel": KERNEL} | kwargs


def _client(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_headers_count_down_and_the_token_limit_gives_429(api, task, settings):
    settings.AKGEN_RATE_SUBMIT_PER_MIN = 3
    seen = []
    for _ in range(3):
        response = api.post(URL, body(), format="json")
        assert response.status_code == 201
        seen.append((response["X-RateLimit-Limit"], response["X-RateLimit-Remaining"]))
        assert int(response["X-RateLimit-Reset"]) > 1_700_000_000
    assert seen == [("3", "2"), ("3", "1"), ("3", "0")]
    response = api.post(URL, body(), format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert 1 <= int(response["Retry-After"]) <= 60
    assert response["X-RateLimit-Remaining"] == "0"
    assert Submission.objects.count() == 3
    # reads are a separate bucket
    assert api.get("/api/v1/tasks/").status_code == 200


def test_user_limit_spans_all_tokens(task, user, make_key, settings):
    settings.AKGEN_RATE_READ_PER_MIN = 100
    settings.AKGEN_RATE_READ_USER_PER_MIN = 3
    first, second = _client(make_key(user)), _client(make_key(user))
    assert [c.get("/api/v1/tasks/").status_code for c in (first, second, first)] == [200, 200, 200]
    response = second.get("/api/v1/tasks/")
    assert response.status_code == 429 and response["X-RateLimit-Limit"] == "3"


def test_rate_limit_with_the_database_backend(api, task, settings):
    settings.AKGEN_RATE_BACKEND = "db"
    settings.AKGEN_RATE_READ_PER_MIN = 2
    assert [api.get("/api/v1/me/").status_code for _ in range(3)] == [200, 200, 429]


def test_unauthenticated_requests_are_not_counted_against_keys(task, api, settings):
    settings.AKGEN_RATE_READ_PER_MIN = 1
    for _ in range(3):
        assert APIClient().get("/api/v1/me/").status_code == 401
    assert api.get("/api/v1/tasks/").status_code == 200


def test_anonymous_reads_are_limited_per_address(task, api, settings):
    settings.AKGEN_RATE_BACKEND = "db"
    settings.AKGEN_RATE_ANON_READ_PER_MIN = 2
    here, there = APIClient(REMOTE_ADDR="10.0.0.1"), APIClient(REMOTE_ADDR="10.0.0.2")
    assert [here.get("/api/v1/tasks/").status_code for _ in range(3)] == [200, 200, 429]
    assert there.get("/api/v1/tasks/").status_code == 200  # another address has its own allowance
    assert api.get("/api/v1/tasks/").status_code == 200  # and a key is not charged for it


def test_pending_cap_gives_429_too_many_pending(api, task, settings):
    settings.AKGEN_MAX_PENDING_PER_USER = 2
    assert [api.post(URL, body(), format="json").status_code for _ in range(2)] == [201, 201]
    response = api.post(URL, body(), format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_pending"
    assert response.json()["fields"] == {"pending": "2", "cap": "2"}
    assert response["Retry-After"] == "30"
    # Finished evaluations free the slot.
    Evaluation.objects.filter(pk=Evaluation.objects.first().pk).update(status=EvalStatus.DONE, verdict="passed")
    assert api.post(URL, body(), format="json").status_code == 201


def test_repeating_an_accepted_sample_is_fine_at_the_cap(api, task, user, settings):
    run = Run.objects.create(model=LanguageModel.objects.create(owner=user, name="m"), name="r", samples_per_task=2)
    settings.AKGEN_MAX_PENDING_PER_USER = 1
    assert api.post(URL, body(run=run.pk, sample_index=0), format="json").status_code == 201
    assert api.post(URL, body(run=run.pk, sample_index=0), format="json").status_code == 200
    assert api.post(URL, body(run=run.pk, sample_index=1), format="json").status_code == 429


def test_me_reports_limits_and_pending(api, task, settings):
    settings.AKGEN_MAX_PENDING_PER_USER = 9
    settings.AKGEN_RATE_SUBMIT_PER_MIN = 50
    api.post(URL, body(), format="json")
    data = api.get("/api/v1/me/").json()
    assert data["pending"] == 1 and data["max_pending"] == 9
    assert data["max_source_bytes"] == 65536 and data["batch_max"] == 256
    token_submit = data["rate_limits"]["submit"][0]
    assert token_submit["key"].startswith("submit:token:") and token_submit["limit"] == 50
    assert token_submit["used"] == 1 and token_submit["remaining"] == 49


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_never_overshoot_the_cap(task, user, make_key, settings):
    """Eight threads race for a cap of 5: exactly five are accepted (the per-user lock holds)."""
    import threading

    from django.db import connection

    settings.AKGEN_MAX_PENDING_PER_USER = 5
    key = make_key(user)
    codes: list[int] = []

    def post():
        try:
            codes.append(_client(key).post(URL, body(), format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201] * 5 + [429] * 3
    assert Submission.objects.count() == 5
