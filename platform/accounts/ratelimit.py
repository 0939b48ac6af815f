"""Atomic fixed-window rate limits, per API token and per user.

DRF's throttles read and write the cache non-atomically, so bursts slip through; here every hit is
one atomic increment that returns the new count:

- Redis (`REDIS_URL` set): `INCR key` + `EXPIRE key` in one MULTI/EXEC;
- otherwise the database: `INSERT … ON CONFLICT (key, window) DO UPDATE SET count = count + 1
  RETURNING count` on accounts_ratecounter (PostgreSQL and SQLite ≥ 3.35 both do this atomically).

If Redis is unreachable the database counts instead, so limits hold while Redis restarts.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from accounts import tiers
from accounts.models import RateCounter

logger = logging.getLogger(__name__)

SCOPES = ("submit", "read")


@dataclass(frozen=True)
class Limit:
    key: str  # e.g. "submit:token:12"
    limit: int


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset_at: int  # epoch seconds when the window ends
    retry_after: int  # seconds to wait when refused

    def headers(self) -> dict[str, str]:
        out = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset_at),
        }
        if not self.allowed:
            out["Retry-After"] = str(self.retry_after)
        return out


def window_s() -> int:
    return max(1, int(settings.AKGEN_RATE_WINDOW_S))


def client_ip(request) -> str:
    """The peer's address as the server saw it (a forwarded header is not trusted here)."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def anonymous_read_limits(request) -> list[Limit]:
    """What an anonymous API read is charged to: its client address."""
    return [Limit(f"read:ip:{client_ip(request)}", settings.AKGEN_RATE_ANON_READ_PER_MIN)]


def limits_for(scope: str, *, user_id: int, token_id: int | None) -> list[Limit]:
    """The counters a request in `scope` ("submit" or "read") is charged to."""
    if scope == "submit":  # the per-user allowance depends on the account's tier
        per_token, per_user = settings.AKGEN_RATE_SUBMIT_PER_MIN, tiers.allowance_of_id(user_id).submit_per_min
    else:
        per_token, per_user = settings.AKGEN_RATE_READ_PER_MIN, settings.AKGEN_RATE_READ_USER_PER_MIN
    limits = [Limit(f"{scope}:user:{user_id}", per_user)]
    if token_id is not None:
        limits.insert(0, Limit(f"{scope}:token:{token_id}", per_token))
    return limits


def _prefix() -> str:
    return getattr(settings, "AKGEN_RATE_KEY_PREFIX", "akgen:rl:")


_redis_client = None
_redis_url = None
_redis_down_until = 0.0  # after a failure, count in the database for a while instead of waiting
REDIS_RETRY_S = 10.0


def _use_redis() -> bool:
    return settings.AKGEN_RATE_BACKEND == "redis" and bool(settings.REDIS_URL) and time.monotonic() >= _redis_down_until


def _redis():
    global _redis_client, _redis_url
    url = settings.REDIS_URL
    if _redis_client is None or _redis_url != url:
        import redis

        _redis_client = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        _redis_url = url
    return _redis_client


def _incr_redis(keys: list[str], ttl: int) -> list[int]:
    pipe = _redis().pipeline(transaction=True)
    for key in keys:
        pipe.incr(key)
        pipe.expire(key, ttl)
    replies = pipe.execute()
    return [int(replies[i]) for i in range(0, len(replies), 2)]


def _incr_db(keys: list[str], window: int) -> list[int]:
    table = connection.ops.quote_name(RateCounter._meta.db_table)
    sql = (
        f'INSERT INTO {table} ("key", "window", "count") VALUES (%s, %s, 1) '
        f'ON CONFLICT ("key", "window") DO UPDATE SET "count" = {table}."count" + 1 RETURNING "count"'
    )
    counts = []
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute(sql, [key, window])
            count = int(cursor.fetchone()[0])
            if count == 1:  # first hit of a new window: drop this key's old windows
                RateCounter.objects.filter(key=key, window__lt=window).delete()
            counts.append(count)
    return counts


def incr(keys: list[str], *, window: int, size: int) -> list[int]:
    """Atomically add one to each key's counter for this window; the new counts."""
    global _redis_down_until
    if _use_redis():
        try:
            return _incr_redis([f"{_prefix()}{k}:{window}" for k in keys], ttl=size + 5)
        except Exception:
            _redis_down_until = time.monotonic() + REDIS_RETRY_S
            logger.warning("Redis rate counter unavailable; counting in the database for %ss",
                           REDIS_RETRY_S, exc_info=True)
    return _incr_db(keys, window)


def hit(limits: list[Limit], *, now: float | None = None) -> Decision:
    """Charge one request to every limit; refuse if any is over. The tightest one is reported."""
    size = window_s()
    now = time.time() if now is None else now
    window = int(now // size) * size
    reset_at = window + size
    counts = incr([lim.key for lim in limits], window=window, size=size)
    allowed = all(count <= lim.limit for lim, count in zip(limits, counts, strict=True))
    tightest = min(zip(limits, counts, strict=True), key=lambda pair: pair[0].limit - pair[1])
    lim, count = tightest
    return Decision(
        allowed=allowed, limit=lim.limit, remaining=max(0, lim.limit - count), reset_at=reset_at,
        retry_after=max(1, math.ceil(reset_at - now)),
    )


def peek(limits: list[Limit], *, now: float | None = None) -> list[dict]:
    """Current usage of each limit without charging (for the profile page and /api/v1/me/)."""
    size = window_s()
    now = time.time() if now is None else now
    window = int(now // size) * size
    used: list[int] = []
    if _use_redis():
        try:
            values = _redis().mget([f"{_prefix()}{lim.key}:{window}" for lim in limits])
            used = [int(v or 0) for v in values]
        except Exception:
            used = []
    if not used:
        rows = dict(RateCounter.objects.filter(key__in=[lim.key for lim in limits], window=window)
                    .values_list("key", "count"))
        used = [rows.get(lim.key, 0) for lim in limits]
    return [
        {"key": lim.key, "limit": lim.limit, "used": n, "remaining": max(0, lim.limit - n),
         "reset_at": window + size, "window_s": size}
        for lim, n in zip(limits, used, strict=True)
    ]
