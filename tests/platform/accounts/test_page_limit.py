"""Anonymous page reads are rate-limited per client address like the API's anonymous reads
(issue #30, accounts.pagelimit): 130 reads of a submission page in a row no longer all answer
200; the 429 page says when to come back; signed-in readers, other addresses, the API's own
allowance, static files, /healthz and the sign-in page are not charged."""

from __future__ import annotations

import time
from types import SimpleNamespace
from unittest import mock

import pytest
from django.test import Client
from rest_framework.test import APIClient

import akgen.settings as shipped
from accounts import ratelimit
from submissions.models import Submission
from tests.platform.factories import make_task

pytestmark = pytest.mark.django_db

NOW = 1_899_999_970.0  # 10 s into a 60 s window: the whole test stays in one


@pytest.fixture(autouse=True)
def one_window():
    """Every request counts in the same fixed window, however slow the machine."""
    clock = SimpleNamespace(time=lambda: NOW, monotonic=time.monotonic)
    with mock.patch.object(ratelimit, "time", clock):
        yield


@pytest.fixture(params=["redis", "db"])
def backend(request, settings):
    if request.param == "redis" and not settings.REDIS_URL:
        pytest.skip("no REDIS_URL")
    settings.AKGEN_RATE_BACKEND = request.param
    return request.param


@pytest.fixture
def submission(user):
    task = make_task("pagelimit")
    return Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                     kernel_source="// k\n", sha256="e" * 64, author=user)


def test_the_shipped_limit_stops_130_anonymous_reads_of_a_submission_page(settings, backend, submission):
    settings.AKGEN_RATE_ANON_PAGE_PER_MIN = shipped.AKGEN_RATE_ANON_PAGE_PER_MIN
    assert 0 < settings.AKGEN_RATE_ANON_PAGE_PER_MIN < 130  # the 130 reads in a row
    here = Client(REMOTE_ADDR="10.1.0.1")
    codes = [here.get(f"/submissions/{submission.pk}/").status_code for _ in range(130)]
    limit = settings.AKGEN_RATE_ANON_PAGE_PER_MIN
    assert codes == [200] * limit + [429] * (130 - limit)


def test_the_429_page_says_when_and_how(settings, backend, submission):
    settings.AKGEN_RATE_ANON_PAGE_PER_MIN = 2
    here = Client(REMOTE_ADDR="10.1.0.2")
    assert [here.get("/tasks/").status_code, here.head("/tasks/").status_code] == [200, 200]  # HEAD counts too
    refused = here.get(f"/submissions/{submission.pk}/")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "50" and refused["X-RateLimit-Limit"] == "2"
    assert refused["X-RateLimit-Remaining"] == "0" and "no-cache" in refused["Cache-Control"]
    page = refused.content.decode()
    assert "Too many requests" in page and 'data-testid="retry-after">50 s<' in page
    assert "/accounts/login/?next=/submissions/" in page and "more than 2 pages in 60 s" in page
    assert refused["Content-Security-Policy"]  # the site's headers on it too
    # A throttled reader can still sign in or up; monitors and assets are not pages.
    for path in ("/accounts/login/", "/accounts/signup/", "/healthz", "/static/favicon.svg"):
        assert here.get(path).status_code != 429, path
    assert here.get("/leaderboard/").status_code == 429


def test_only_anonymous_page_reads_of_one_address_are_charged(settings, backend, user, submission):
    settings.AKGEN_RATE_ANON_PAGE_PER_MIN = 1
    settings.AKGEN_RATE_ANON_READ_PER_MIN = 5
    here = Client(REMOTE_ADDR="10.1.0.3")
    assert [here.get("/tasks/").status_code for _ in range(2)] == [200, 429]
    assert Client(REMOTE_ADDR="10.1.0.4").get("/tasks/").status_code == 200  # another address, its own allowance
    # The API's anonymous reads keep their own allowance (api.views.ApiView), and the limit is the API's.
    api = APIClient(REMOTE_ADDR="10.1.0.3")
    assert [api.get("/api/v1/tasks/").status_code for _ in range(6)] == [200] * 5 + [429]
    # Signed in from the same address: not counted here.
    signed_in = Client(REMOTE_ADDR="10.1.0.3")
    signed_in.force_login(user)
    assert {signed_in.get(f"/submissions/{submission.pk}/").status_code for _ in range(5)} == {200}
    # A POST is no read (the login form has its own limit, AKGEN_RATE_LOGIN_PER_MIN).
    assert here.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 200


def test_zero_turns_the_limit_off(settings, backend):
    settings.AKGEN_RATE_ANON_PAGE_PER_MIN = 0
    here = Client(REMOTE_ADDR="10.1.0.5")
    assert {here.get("/tasks/").status_code for _ in range(5)} == {200}
