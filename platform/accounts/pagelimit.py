"""Anonymous page reads are rate-limited per client address, as the API's anonymous reads are.

Why: everything public is readable without an account, through the API (limited per address by
``api.views.ApiView``) and through the pages, which had no limit at all — a scraper walked every
submission page at full speed while the API answered the same reader 429. Here each anonymous
GET or HEAD of a page counts against ``AKGEN_RATE_ANON_PAGE_PER_MIN`` per client address and
``AKGEN_RATE_WINDOW_S`` (the same atomic fixed-window counters as the API, accounts.ratelimit);
past it the reader gets a 429 page that says when to come back (Retry-After) and that signing
in lifts the limit. Signed-in readers are not counted here: they are accountable, and their API
use has its own limits.

Not counted: the API under /api/v1/ (its own limiter), static files, ``/healthz`` (monitors
poll it; it shows details only to staff), and the sign-in and sign-up pages (a throttled reader
can always sign in). ``AKGEN_RATE_ANON_PAGE_PER_MIN=0`` turns the limit off, e.g. behind a proxy
that makes every client the same address (the address is the peer's: forwarded headers are not
trusted, accounts.ratelimit.client_ip).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import add_never_cache_headers

from accounts import ratelimit

READS = ("GET", "HEAD")


@lru_cache(maxsize=1)
def _exempt_prefixes(static_url: str) -> tuple[str, ...]:
    prefixes = ["/api/v1/"]
    if static_url and not static_url.startswith(("http://", "https://", "//")):
        prefixes.append("/" + static_url.strip("/") + "/")
    for name in ("healthz", "accounts:login", "accounts:signup"):
        try:
            prefixes.append(reverse(name))
        except NoReverseMatch:  # a trimmed URLconf (tests) may lack one
            continue
    return tuple(prefixes)


def page_limits(request: HttpRequest) -> list[ratelimit.Limit]:
    """What an anonymous page read is charged to: its client address (apart from the API's)."""
    return [ratelimit.Limit(f"page:ip:{ratelimit.client_ip(request)}", settings.AKGEN_RATE_ANON_PAGE_PER_MIN)]


def is_counted(request: HttpRequest) -> bool:
    """Whether this request is an anonymous page read the limit applies to."""
    if request.method not in READS or settings.AKGEN_RATE_ANON_PAGE_PER_MIN <= 0:
        return False
    if request.path.startswith(_exempt_prefixes(settings.STATIC_URL or "")):
        return False
    user = getattr(request, "user", None)
    return not (user is not None and user.is_authenticated)


def too_many(request: HttpRequest, decision: ratelimit.Decision) -> HttpResponse:
    """The 429 page: how long to wait, the limit, and that signing in lifts it."""
    response = render(request, "429.html", {"retry_after": decision.retry_after, "limit": decision.limit,
                                            "window_s": ratelimit.window_s()}, status=429)
    for name, value in decision.headers().items():
        response[name] = value
    add_never_cache_headers(response)
    return response


class AnonymousPageLimit:
    """Middleware (after authentication): count anonymous page reads per address, 429 past the limit."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_counted(request):
            decision = ratelimit.hit(page_limits(request))
            if not decision.allowed:
                return too_many(request, decision)
        return self.get_response(request)
