"""The fixed-window counters are atomic on both backends (Redis INCR, database upsert), roll over
with the window, and fall back to the database when Redis is down."""

import threading
from unittest import mock

import pytest
from django.db import connection

from accounts import ratelimit
from accounts.models import RateCounter

BACKENDS = ["redis", "db"]


@pytest.fixture(params=BACKENDS)
def backend(request, settings):
    if request.param == "redis" and not settings.REDIS_URL:
        pytest.skip("REDIS_URL not set (scripts/test sets it)")
    settings.AKGEN_RATE_BACKEND = request.param
    return request.param


@pytest.mark.django_db
def test_counts_and_window_rollover(backend):
    limits = [ratelimit.Limit("submit:token:1", 3), ratelimit.Limit("submit:user:1", 5)]
    now = 1_000_000 * 60 + 10.0
    decisions = [ratelimit.hit(limits, now=now) for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert [d.remaining for d in decisions] == [2, 1, 0, 0]
    assert decisions[0].limit == 3  # the tighter limit is reported
    assert decisions[-1].reset_at == 1_000_001 * 60
    assert decisions[-1].retry_after == 50
    assert decisions[-1].headers()["Retry-After"] == "50"
    assert "Retry-After" not in decisions[0].headers()
    # The next window starts from zero.
    assert ratelimit.hit(limits, now=now + 60).remaining == 2
    usage = ratelimit.peek(limits, now=now + 60)
    assert [u["used"] for u in usage] == [1, 1]


@pytest.mark.django_db
def test_user_limit_applies_across_tokens(backend):
    user_limit = ratelimit.Limit("read:user:7", 4)
    results = [ratelimit.hit([ratelimit.Limit(f"read:token:{i % 2}", 100), user_limit], now=120.0)
               for i in range(5)]
    assert [r.allowed for r in results] == [True] * 4 + [False]
    assert results[-1].limit == 4


@pytest.mark.django_db(transaction=True)
def test_concurrent_hits_are_never_lost(backend):
    """16 threads × 25 hits on one key: every count from 1 to 400 is handed out exactly once."""
    seen: list[int] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def worker():
        try:
            mine = [ratelimit.incr(["race:key"], window=600, size=60)[0] for _ in range(25)]
            with lock:
                seen.extend(mine)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(seen) == list(range(1, 401))


@pytest.mark.django_db
def test_db_backend_prunes_old_windows(settings):
    settings.AKGEN_RATE_BACKEND = "db"
    for window in (60, 120, 180):
        ratelimit.incr(["k"], window=window, size=60)
    assert list(RateCounter.objects.filter(key="k").values_list("window", flat=True)) == [180]


@pytest.mark.django_db
def test_redis_outage_falls_back_to_the_database(settings):
    settings.AKGEN_RATE_BACKEND = "redis"
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    with mock.patch.object(ratelimit, "_redis_down_until", 0.0):
        assert ratelimit.incr(["fallback"], window=60, size=60) == [1]
        assert ratelimit.incr(["fallback"], window=60, size=60) == [2]  # now skips Redis at once
    assert RateCounter.objects.get(key="fallback").count == 2
