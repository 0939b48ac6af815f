"""Malformed input is the sender's 400, never the server's 500.

One rule for every page and endpoint, applied before any view runs: query strings and form
fields must be UTF-8 text without NUL. PostgreSQL refuses NUL in text, and a view that passes a
filter straight to a query would otherwise fail with a server error; other control characters
are ordinary (if odd) text that the views' own validation answers. JSON bodies are checked by
api.parsers (size, depth; DRF's fields refuse NUL in values).
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from django.http import HttpRequest, HttpResponse, JsonResponse

#: How deeply a JSON body may nest (objects and arrays); real payloads need three or four levels.
MAX_JSON_DEPTH = 32


def bad_text(value: str) -> bool:
    return "\x00" in value


def query_problem(raw: str) -> str | None:
    """Why a raw query string is unusable, or None."""
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, encoding="utf-8", errors="strict")
    except (UnicodeDecodeError, ValueError):
        return "the query string is not valid UTF-8"
    for key, value in pairs:
        if bad_text(key) or bad_text(value):
            return f"the query parameter {key[:40]!r} contains a NUL character"
    return None


def json_depth_exceeds(value: object, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when ``value`` nests objects/arrays deeper than ``limit`` (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


class RejectMalformedInput:
    """Answer 400 (JSON under /api/) for a query string or form field that is not clean text."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = query_problem(request.META.get("QUERY_STRING", ""))
        if problem is None and request.method == "POST" and request.content_type in (
                "application/x-www-form-urlencoded", "multipart/form-data"):
            for key, values in request.POST.lists():
                if bad_text(key) or any(bad_text(v) for v in values):
                    problem = f"the form field {key[:40]!r} contains a NUL character"
                    break
        if problem is None:
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"code": "malformed_input", "message": f"Bad request: {problem}.", "fields": {}},
                                status=400)
        return HttpResponse(f"Bad request: {problem}.", status=400, content_type="text/plain; charset=utf-8")
