"""One shape for every API error: `{"code", "message", "fields"}` with the right HTTP status.

400 malformed or invalid input, 401 missing/unknown/expired/revoked key, 403 missing scope or
CSRF, 404 not found (including others' private submissions), 405, 413 body or source too large,
415, 429 rate limit or too many pending evaluations (with Retry-After when waiting helps).
"""

from __future__ import annotations

import logging
import math

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from api.errors import InsufficientScope, RequestTooLarge, request_too_large
from core.errors import Rejected

__all__ = ["InsufficientScope", "RequestTooLarge", "api_exception_handler"]

logger = logging.getLogger(__name__)


def error_body(code: str, message: str, fields: dict | None = None) -> dict:
    return {"code": code, "message": message, "fields": fields or {}}


def flatten_errors(detail, prefix: str = "") -> dict[str, str]:
    """DRF's nested error detail → {"field.sub.0": "message; message"}."""
    out: dict[str, str] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" and not prefix else str(key)
            out.update(flatten_errors(value, f"{prefix}.{name}".strip(".") if name else prefix))
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            out[prefix or "_"] = "; ".join(str(item) for item in detail)
        else:
            for i, item in enumerate(detail):
                if item:
                    out.update(flatten_errors(item, f"{prefix}.{i}".strip(".")))
    else:
        out[prefix or "_"] = str(detail)
    return out


def _message_for(fields: dict[str, str]) -> str:
    if not fields:
        return "Invalid input."
    first_field, first_msg = next(iter(fields.items()))
    more = f" (and {len(fields) - 1} more)" if len(fields) > 1 else ""
    where = "" if first_field == "_" else f"{first_field}: "
    return f"Invalid input: {where}{first_msg}{more}"


def api_exception_handler(exc, context):
    headers: dict[str, str] = {}
    if isinstance(exc, Rejected):  # the apps' errors: a rejected submission, token, too many pending…
        set_rollback()
        if exc.retry_after_s:
            headers["Retry-After"] = str(exc.retry_after_s)
        return Response(error_body(exc.code, exc.message, exc.fields), status=exc.status_code, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        exc = request_too_large()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)

    if not isinstance(exc, exceptions.APIException):
        logger.exception("unhandled error in API view %s", context.get("view").__class__.__name__)
        set_rollback()
        return Response(error_body("server_error", "Internal error; it has been logged."),
                        status=status.HTTP_500_INTERNAL_SERVER_ERROR)

    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(math.ceil(exc.wait))

    if isinstance(exc, exceptions.ValidationError):
        fields = flatten_errors(exc.detail)
        body = error_body("invalid", _message_for(fields), fields)
    else:
        code = getattr(exc, "error_code", None) or exc.get_codes()
        if not isinstance(code, str):
            code = exc.default_code
        if code == "parse_error":
            code = "malformed_request"
        message = str(exc.detail) if not isinstance(exc.detail, (list, dict)) else "Request failed."
        body = error_body(str(code), message)
    set_rollback()
    return Response(body, status=exc.status_code, headers=headers)
