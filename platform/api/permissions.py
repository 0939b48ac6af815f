"""Scope checks: a token may only do what its scopes allow; a browser session acts as its user."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from accounts.models import ApiToken
from api.errors import InsufficientScope


def required_scope(view, method: str) -> str:
    scopes = getattr(view, "scopes", None) or {}
    if method in scopes:
        return scopes[method]
    return "read" if method in SAFE_METHODS else "submit"


class HasScope(BasePermission):
    """Authenticated, and if by API token, the token carries the scope this method needs.

    Views say which scope each method needs in `scopes = {"GET": "read", "POST": "submit"}`;
    by default safe methods need `read` and the others `submit`. A view with ``public_read =
    True`` answers anonymous GETs too (rate-limited per client address).
    """

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            # Public data is public here as on the pages (``public_read`` views, GET only); the
            # rest answers 401 (NotAuthenticated) to anonymous requests.
            return request.method in SAFE_METHODS and getattr(view, "public_read", False)
        token = request.auth
        if isinstance(token, ApiToken):
            scope = required_scope(view, request.method)
            if not token.has_scope(scope):
                raise InsufficientScope(
                    f"This API key ({token.prefix}) lacks the '{scope}' scope "
                    f"(it has: {', '.join(token.scopes) or 'none'})."
                )
        return True
