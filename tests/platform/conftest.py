"""Fixtures shared by the platform tests."""

import pytest
from django.contrib.auth import get_user_model

from submissions import intake, queueing
from tasks.models import Task
from tests.platform.factories import make_task
from workers import pipeline


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
    """Fail when a test leaves the broker send patched: every later test's submissions would go
    nowhere (a real worker then waits for messages that were never sent). Checked before each
    test too, since a fixture's patch may be undone only after this one's teardown."""
    _assert_sends_are_real("when this test started (an earlier test left it patched)")
    yield
    _assert_sends_are_real("after this test")
