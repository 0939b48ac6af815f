"""Fixtures for the accounts and API tests: clean rate-limit keys, no evaluator messages, keys."""

from __future__ import annotations

import uuid
from unittest import mock

import pytest
from rest_framework.test import APIClient

from accounts.services import token_create
from submissions import intake


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """Each test counts in its own Redis/DB key space, with generous limits unless it says so (and
    a fast password hasher)."""
    settings.AKGEN_RATE_KEY_PREFIX = f"akgen:test:{uuid.uuid4().hex[:12]}:"
    settings.AKGEN_RATE_SUBMIT_PER_MIN = 10_000
    settings.AKGEN_RATE_SUBMIT_USER_PER_MIN = 10_000
    settings.AKGEN_RATE_READ_PER_MIN = 10_000
    settings.AKGEN_RATE_READ_USER_PER_MIN = 10_000
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test users
    return settings


@pytest.fixture(autouse=True)
def no_sends():
    """The evaluator is not under test here: evaluation_send is mocked, its calls counted."""
    with mock.patch.object(intake, "evaluation_send") as send:
        yield send


@pytest.fixture
def make_key(db):
    def make(user, scopes=("submit", "read"), **kwargs) -> str:
        return token_create(user=user, name=kwargs.pop("name", "test"), scopes=list(scopes), **kwargs).key

    return make


@pytest.fixture
def api(user, make_key) -> APIClient:
    """An API client for `user` with a submit+read key."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {make_key(user)}")
    client.user = user
    return client


@pytest.fixture
def other_user(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("grace", password="another horse battery")
