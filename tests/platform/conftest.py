"""Fixtures shared by the platform tests."""

import pytest
from django.contrib.auth import get_user_model

from tasks.models import Task
from tests.platform.factories import make_task


@pytest.fixture
def task(db) -> Task:
    return make_task()


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("ada", password="correct horse battery")
