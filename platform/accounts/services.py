"""Write-side operations on API tokens: create, revoke, authenticate (models and runs are
registered by submissions.runs)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import ApiToken, Scope
from core.errors import Rejected

KEY_PREFIX = "akg_"
_ID_ALPHABET = string.ascii_lowercase + string.digits
_ID_LEN = 8
PREFIX_LEN = len(KEY_PREFIX) + _ID_LEN  # "akg_" + 8 characters, shown in lists
SECRET_BYTES = 32
LAST_USED_EVERY = timedelta(minutes=1)
MAX_TOKENS_PER_USER = 50


class TokenError(Exception):
    """An API key that cannot be used; `code` says why (the API answers 401)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _sha256(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def scopes_clean(scopes) -> list[str]:
    """Validate and normalise a list (or comma-separated string) of scope names."""
    if isinstance(scopes, str):
        scopes = [s.strip() for s in scopes.split(",") if s.strip()]
    scopes = list(dict.fromkeys(scopes or []))
    unknown = [s for s in scopes if s not in Scope.values]
    if unknown or not scopes:
        raise Rejected(
            "invalid_scopes",
            f"Scopes must be a non-empty subset of {', '.join(Scope.values)}"
            + (f"; unknown: {', '.join(map(str, unknown))}." if unknown else "."),
            {"scopes": f"choose from {', '.join(Scope.values)}"},
        )
    return [s for s in Scope.values if s in scopes]  # canonical order


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    key: str  # the full key; never stored, shown once


def token_create(*, user, name: str, scopes, expires_at: datetime | None = None) -> NewToken:
    name = (name or "").strip()[:80] or "token"
    scopes = scopes_clean(scopes)
    if expires_at is not None and expires_at <= timezone.now():
        raise Rejected("invalid_expiry", "The expiry date must be in the future.",
                       {"expires_at": "in the past"})
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_TOKENS_PER_USER:
        raise Rejected("too_many_tokens", f"At most {MAX_TOKENS_PER_USER} live tokens per user; "
                       "revoke some first.", {})
    secret = secrets.token_urlsafe(SECRET_BYTES)
    for _ in range(5):
        prefix = KEY_PREFIX + "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LEN))
        try:
            with transaction.atomic():
                token = ApiToken.objects.create(
                    user=user, name=name, prefix=prefix, secret_sha256=_sha256(secret),
                    scopes=scopes, expires_at=expires_at,
                )
            return NewToken(token, f"{prefix}_{secret}")
        except IntegrityError:  # prefix collision (1 in 36^8): draw another
            continue
    raise RuntimeError("could not allocate a unique token prefix")


def token_revoke(*, user, token_id: int) -> bool:
    """Revoke one of the user's tokens; False if there is no such live token."""
    return bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())
    )


def split_key(key: str) -> tuple[str, str] | None:
    if not key.startswith(KEY_PREFIX) or len(key) < PREFIX_LEN + 2 or key[PREFIX_LEN] != "_":
        return None
    return key[:PREFIX_LEN], key[PREFIX_LEN + 1:]


def token_authenticate(key: str) -> ApiToken:
    """The live token for `key` (with its user loaded); raises TokenError otherwise.

    The secret's hash is compared in constant time; last_used_at is written at most once a minute.
    """
    parts = split_key(key.strip())
    if parts is None:
        raise TokenError("invalid_token", "Malformed API key; expected 'akg_XXXXXXXX_<secret>'.")
    prefix, secret = parts
    token = ApiToken.objects.select_related("user").filter(prefix=prefix).first()
    # Hash even when the prefix is unknown so both paths take about the same time.
    ok = hmac.compare_digest(_sha256(secret), token.secret_sha256 if token else "0" * 64)
    if token is None or not ok:
        raise TokenError("invalid_token", "Unknown API key.")
    now = timezone.now()
    state = token.state(now)
    if state == "revoked":
        raise TokenError("token_revoked", f"API key {prefix} was revoked.")
    if state == "expired":
        raise TokenError("token_expired", f"API key {prefix} expired at {token.expires_at:%Y-%m-%d %H:%M} UTC.")
    if not token.user.is_active:
        raise TokenError("user_inactive", "This account is disabled.")
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - LAST_USED_EVERY)
        ).update(last_used_at=now)
        token.last_used_at = now
    return token
