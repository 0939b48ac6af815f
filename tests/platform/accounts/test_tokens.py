"""API token lifecycle: created with a shown-once key, stored as prefix + hash, scoped, expiring,
revocable, last use recorded at most once a minute — checked through the real API."""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.models import ApiToken
from core.errors import Rejected

ME = "/api/v1/me/"


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_key_is_prefix_plus_secret_and_only_its_hash_is_stored(user):
    new = services.token_create(user=user, name="ci", scopes=["read", "submit"])
    prefix, secret = new.key[:12], new.key[13:]
    assert prefix.startswith("akg_") and new.key[12] == "_" and len(secret) >= 43  # 32 random bytes
    row = ApiToken.objects.get(pk=new.token.pk)
    assert row.prefix == prefix
    assert row.scopes == ["submit", "read"]  # canonical order
    assert secret not in row.secret_sha256 and len(row.secret_sha256) == 64
    stored = " ".join(str(v) for v in ApiToken.objects.values_list().get(pk=row.pk))
    assert secret not in stored


def test_two_keys_never_share_a_prefix_or_secret(user):
    keys = {services.token_create(user=user, name=f"t{i}", scopes=["read"]).key for i in range(20)}
    assert len(keys) == 20
    assert len({k[:12] for k in keys}) == 20


def test_live_key_authenticates_and_reports_its_scopes(user, make_key):
    key = make_key(user, scopes=["read"])
    response = _client(key).get(ME)
    assert response.status_code == 200, response.content
    assert response.json()["username"] == "ada"
    assert response.json()["scopes"] == ["read"]
    assert response.json()["token"] == key[:12]


@pytest.mark.parametrize(
    "mangle, code",
    [
        (lambda k: k[:-1] + ("A" if k[-1] != "A" else "B"), "invalid_token"),  # wrong secret
        (lambda k: "akg_zzzzzzzz_" + k[13:], "invalid_token"),  # unknown prefix
        (lambda k: "not-a-key", "invalid_token"),
        (lambda k: k[:12], "invalid_token"),  # prefix alone
    ],
)
def test_bad_keys_get_401_json(user, make_key, mangle, code):
    response = _client(mangle(make_key(user))).get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == code
    assert response["WWW-Authenticate"] == "Token"


def test_malformed_authorization_header_is_401(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token two words")
    assert client.get(ME).status_code == 401


def test_bearer_keyword_is_accepted_too(user, make_key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {make_key(user)}")
    assert client.get(ME).status_code == 200


def test_revoked_key_is_refused(user, make_key):
    key = make_key(user)
    client = _client(key)
    assert client.get(ME).status_code == 200
    token = ApiToken.objects.get(prefix=key[:12])
    assert services.token_revoke(user=user, token_id=token.pk)
    response = client.get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "token_revoked"
    assert not services.token_revoke(user=user, token_id=token.pk)  # already revoked


def test_a_user_cannot_revoke_someone_elses_key(user, other_user, make_key):
    token = ApiToken.objects.get(prefix=make_key(user)[:12])
    assert not services.token_revoke(user=other_user, token_id=token.pk)
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_expired_key_is_refused(user):
    new = services.token_create(user=user, name="short", scopes=["read"],
                                expires_at=timezone.now() + timedelta(hours=1))
    client = _client(new.key)
    assert client.get(ME).status_code == 200
    ApiToken.objects.filter(pk=new.token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "token_expired"


def test_expiry_in_the_past_and_unknown_scopes_are_rejected(user):
    with pytest.raises(Rejected) as info:
        services.token_create(user=user, name="x", scopes=["read"], expires_at=timezone.now() - timedelta(days=1))
    assert info.value.code == "invalid_expiry"
    for scopes in ([], ["admin"], "read,root"):
        with pytest.raises(Rejected) as info:
            services.token_create(user=user, name="x", scopes=scopes)
        assert info.value.code == "invalid_scopes"


def test_inactive_user_key_is_refused(user, make_key):
    key = make_key(user)
    user.is_active = False
    user.save()
    assert _client(key).get(ME).json()["code"] == "user_inactive"


def test_last_used_is_written_at_most_once_a_minute(user, make_key, django_assert_num_queries):
    key = make_key(user)
    token = ApiToken.objects.get(prefix=key[:12])
    assert token.last_used_at is None
    first = services.token_authenticate(key)
    stamp = ApiToken.objects.get(pk=token.pk).last_used_at
    assert stamp is not None and first.last_used_at == stamp
    with django_assert_num_queries(1):  # the lookup only: no write within the minute
        services.token_authenticate(key)
    assert ApiToken.objects.get(pk=token.pk).last_used_at == stamp
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=stamp - timedelta(minutes=2))
    services.token_authenticate(key)
    assert ApiToken.objects.get(pk=token.pk).last_used_at > stamp - timedelta(minutes=1)


def test_create_api_token_command_prints_a_working_key(user, capsys):
    call_command("create_api_token", "--user", "ada", "--scopes", "submit,read", "--name", "bench")
    out = capsys.readouterr()
    key = out.out.strip()
    assert "\n" not in key and key.startswith("akg_")
    assert "not stored" in out.err
    token = ApiToken.objects.get(prefix=key[:12])
    assert token.name == "bench" and token.scopes == ["submit", "read"] and token.expires_at is None
    assert _client(key).get(ME).status_code == 200


def test_create_api_token_command_expiry_and_errors(user, capsys):
    call_command("create_api_token", "--user", "ada", "--scopes", "read", "--expires-days", "7")
    key = capsys.readouterr().out.strip()
    token = ApiToken.objects.get(prefix=key[:12])
    assert timedelta(days=6) < token.expires_at - timezone.now() <= timedelta(days=7)
    with pytest.raises(CommandError, match="No user"):
        call_command("create_api_token", "--user", "nobody")
    with pytest.raises(CommandError, match="Scopes"):
        call_command("create_api_token", "--user", "ada", "--scopes", "read,root")
