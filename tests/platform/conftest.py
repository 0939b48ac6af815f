"""Fixtures shared by the platform tests."""

import pytest
from django.contrib.auth import get_user_model

from submissions import intake, queueing
from tasks.models import Task
from tests.platform.factories import make_task
from workers import pipeline


@pytest.fixture(autouse=True)
def anonymous_pages_unthrottled(settings):
    """Tests read pages anonymously from one address (127.0.0.1) far faster than a person, and
    the counters outlive a test in Redis: the anonymous page limit (accounts.pagelimit) is out of
    the way unless a test sets it (tests/platform/accounts/test_page_limit.py)."""
    settings.AKGEN_RATE_ANON_PAGE_PER_MIN = 1_000_000


@pytest.fixture
def task(db) -> Task:
    return make_task()


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("ada", password="correct horse battery")


def _assert_sends_are_real(when: str) -> None:
    for module in (intake, pipeline):
        assert module.evaluation_send is queueing.evaluation_send, (
            f"{module.__name__}.evaluation_send is still replaced ({module.evaluation_send!r}) {when}")


@pytest.fixture(autouse=True)
def broker_sends_are_real():
    """Fail when an earlier test left the broker send patched: every later test's submissions
    would go nowhere (a real worker then waits for messages that were never sent). Checked at
    setup, when every fixture of the tests before has been torn down (a monkeypatch may be
    undone only after an autouse fixture's teardown)."""
    _assert_sends_are_real("when this test started (an earlier test left it patched)")
    yield
