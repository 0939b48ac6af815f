"""Request helpers shared by the apps' views."""

from __future__ import annotations


def htmx_target(request, target: str) -> bool:
    """Whether this is an htmx request for the element `target` (then a partial is enough).

    A history-restore request wants the whole page even though it comes from htmx.
    """
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request and htmx.target == target


def int_or_none(value: str | None) -> int | None:
    """A query parameter as an int; None when absent or not a number."""
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None
