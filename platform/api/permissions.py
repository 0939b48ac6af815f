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
    by default safe methods need `read` and the others `submit`.
    """

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False  # DRF answers 401 (NotAuthenticated) for anonymous requests
        token = request.auth
        if isinstance(token, ApiToken):
            scope = required_scope(view, request.method)
            if not token.has_scope(scope):
                raise InsufficientScope(
                    f"This API key ({token.prefix}) lacks the '{scope}' scope "
                    f"(it has: {', '.join(token.scopes) or 'none'})."
                )
        return True
