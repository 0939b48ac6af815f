"""API exceptions (importable from parsers and permissions without pulling in DRF's views)."""

from __future__ import annotations

from rest_framework import exceptions, status


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = "The request body is too large."


def request_too_large() -> RequestTooLarge:
    from django.conf import settings

    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return RequestTooLarge(
        f"The request body is larger than {limit} bytes; send fewer submissions per batch "
        "(each source is limited to 64 KiB, or its task's spec.source_bytes)."
    )


class InsufficientScope(exceptions.PermissionDenied):
    default_code = "insufficient_scope"
