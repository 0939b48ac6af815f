import uuid

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Page tests create users; the default hasher costs ~0.5 s a user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Rate counters live in a shared Redis: keep this test's apart from everyone else's.
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
