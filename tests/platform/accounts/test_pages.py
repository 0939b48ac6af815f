"""Sign-up and the profile pages: tokens (key shown exactly once), models, runs, limits."""

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import ApiToken
from submissions.models import LanguageModel, Run

PROFILE = "/accounts/profile/"


@pytest.fixture
def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_signup_creates_the_account_and_logs_in(db):
    client = Client()
    assert client.get("/accounts/signup/").status_code == 200
    response = client.post("/accounts/signup/", {
        "username": "linus", "email": "", "password1": "a sturdy passphrase 42", "password2": "a sturdy passphrase 42",
    })
    assert response.status_code == 302 and response["Location"] == PROFILE
    assert get_user_model().objects.filter(username="linus").exists()
    assert client.get(PROFILE).status_code == 200


def test_signup_rejects_mismatched_passwords(db):
    response = Client().post("/accounts/signup/", {"username": "x", "password1": "a sturdy passphrase 42",
                                                   "password2": "different"})
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="x").exists()


def test_profile_needs_login(db):
    response = Client().get(PROFILE)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_token_key_is_shown_exactly_once_and_works(browser, user):
    response = browser.post("/accounts/profile/tokens/", {"name": "laptop", "scopes": ["read"],
                                                          "expires_in_days": "30"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    html = response.content.decode()
    key = re.search(r'data-testid="new-key-value">(akg_[^<]+)</pre>', html).group(1)
    token = ApiToken.objects.get(prefix=key[:12])
    assert token.name == "laptop" and token.scopes == ["read"] and token.expires_at is not None
    # The next page view lists the token by prefix but never shows the key again.
    again = browser.get(PROFILE).content.decode()
    assert key[:12] in again and key not in again and key[13:] not in again
    me = Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/v1/me/")
    assert me.status_code == 200


def test_token_form_errors_are_shown(browser):
    response = browser.post("/accounts/profile/tokens/", {"name": "x", "scopes": []})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_revoke_from_the_profile(browser, user, make_key, other_user):
    key = make_key(user)
    token = ApiToken.objects.get(prefix=key[:12])
    response = browser.post(f"/accounts/profile/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert "revoked" in browser.get(PROFILE).content.decode()
    # someone else's token id does nothing
    theirs = ApiToken.objects.get(prefix=make_key(other_user)[:12])
    browser.post(f"/accounts/profile/tokens/{theirs.pk}/revoke/")
    assert ApiToken.objects.get(pk=theirs.pk).revoked_at is None


def test_revoke_needs_post(browser, user, make_key):
    token = ApiToken.objects.get(prefix=make_key(user)[:12])
    assert browser.get(f"/accounts/profile/tokens/{token.pk}/revoke/").status_code == 405


def test_csrf_is_enforced_on_profile_forms(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post("/accounts/profile/tokens/", {"name": "x", "scopes": ["read"]})
    assert response.status_code == 403
    assert not ApiToken.objects.exists()


def test_register_model_and_run_from_the_profile(browser, user):
    response = browser.post("/accounts/profile/models/", {
        "name": "tiny-coder", "base_model": "Qwen2.5-Coder-7B", "training_stage": "sft_rl", "parameters": "7B",
        "link": "https://example.org/tiny"})
    assert response.status_code == 302
    model = LanguageModel.objects.get(name="tiny-coder")
    assert model.owner == user and model.training_stage == "sft_rl"
    response = browser.post("/accounts/profile/runs/", {
        "model": model.pk, "name": "k4-t0.8", "samples_per_task": 4, "decoding": '{"temperature": 0.8}',
        "path": "device_only", "toolchain": "cpu-sim"})
    assert response.status_code == 302
    run = Run.objects.get(model=model)
    assert run.samples_per_task == 4 and run.decoding == {"temperature": 0.8}
    html = browser.get(PROFILE).content.decode()
    assert "tiny-coder" in html and "k4-t0.8" in html and "SFT+RL" in html


def test_model_name_taken_and_bad_decoding_are_form_errors(browser, user, other_user):
    LanguageModel.objects.create(owner=other_user, name="taken")
    response = browser.post("/accounts/profile/models/", {"name": "taken", "training_stage": "base"})
    assert response.status_code == 400 and "already exists" in response.content.decode()
    mine = LanguageModel.objects.create(owner=user, name="mine")
    response = browser.post("/accounts/profile/runs/", {"model": mine.pk, "name": "r", "samples_per_task": 1,
                                                        "decoding": "[1, 2]", "path": "device_only",
                                                        "toolchain": "cpu-sim"})
    assert response.status_code == 400 and not Run.objects.exists()
    theirs = LanguageModel.objects.get(name="taken")
    response = browser.post("/accounts/profile/runs/", {"model": theirs.pk, "name": "r", "samples_per_task": 1,
                                                        "path": "device_only", "toolchain": "cpu-sim"})
    assert response.status_code == 400 and not Run.objects.exists()


def test_profile_shows_limits(browser, settings):
    settings.AKGEN_MAX_PENDING_PER_USER = 17
    html = browser.get(PROFILE).content.decode()
    assert 'data-testid="pending">0<span class="of"> / 17' in html
    assert "64 KiB" in html


@pytest.mark.django_db
def test_sign_in_attempts_are_throttled_per_account_and_address(client, settings):
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
    settings.AKGEN_RATE_LOGIN_PER_MIN = 5
    get_user_model().objects.create_user("victim", password="the right one 123")
    for _ in range(5):
        wrong = client.post("/accounts/login/", {"username": "victim", "password": "guess"})
        assert wrong.status_code == 200 and not wrong.wsgi_request.user.is_authenticated
    refused = client.post("/accounts/login/", {"username": "victim", "password": "the right one 123"})
    assert refused.status_code == 429 and "Too many sign-in attempts" in refused.content.decode()
    assert int(refused["Retry-After"]) >= 1
    # Another address guessing the same account is refused too (the per-account counter).
    other = client.post("/accounts/login/", {"username": "VICTIM", "password": "guess"}, REMOTE_ADDR="10.9.9.9")
    assert other.status_code == 429


@pytest.mark.django_db
def test_sign_ups_are_throttled_per_address(client, settings):
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
    settings.AKGEN_RATE_SIGNUP_PER_MIN = 2
    codes = []
    for i in range(3):
        client.logout()  # a new visitor each time, from the same address
        codes.append(client.post("/accounts/signup/", {"username": f"new{i}", "password1": "a long pass 12345",
                                                       "password2": "a long pass 12345"}).status_code)
    assert codes == [302, 302, 429]
