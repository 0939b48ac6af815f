"""DRF authentication with `Authorization: Token akg_XXXXXXXX_<secret>` (or `Bearer …`)."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from accounts.services import TokenError, token_authenticate

KEYWORDS = ("token", "bearer")


class TokenAuthenticationFailed(exceptions.AuthenticationFailed):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(detail=message, code=code)
        self.error_code = code


class TokenAuthentication(authentication.BaseAuthentication):
    """request.user is the token's owner and request.auth the ApiToken (its scopes are checked per view)."""

    keyword = "Token"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower().decode("latin-1") not in KEYWORDS:
            return None  # not ours: the session may still authenticate the browser
        if len(header) != 2:
            raise TokenAuthenticationFailed("invalid_token", "Authorization header must be 'Token <key>'.")
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError as exc:
            raise TokenAuthenticationFailed("invalid_token", "The API key has invalid characters.") from exc
        try:
            token = token_authenticate(key)
        except TokenError as exc:
            raise TokenAuthenticationFailed(exc.code, exc.message) from exc
        return token.user, token

    def authenticate_header(self, request) -> str:
        return self.keyword  # makes DRF answer 401 (with WWW-Authenticate), not 403


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token akg_XXXXXXXX_<secret>`: create one in your profile or with "
                           "`manage.py create_api_token --user NAME --scopes submit,read`.",
        }
