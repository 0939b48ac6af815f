"""JSON parsing with a size cap.

DRF reads the body straight from the WSGI stream, bypassing Django's DATA_UPLOAD_MAX_MEMORY_SIZE
check, so the cap is enforced here: a body over the limit is refused with a JSON 413 before it is
read into memory (by Content-Length) or as soon as the read passes the limit.
"""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from api.exceptions import RequestTooLarge


def _too_large(limit: int) -> RequestTooLarge:
    return RequestTooLarge(
        f"The request body is larger than {limit} bytes; send fewer submissions per batch "
        "(each source is limited to 64 KiB)."
    )


class LimitedJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        if request is not None and limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                raise _too_large(limit)
        raw = stream.read(limit + 1) if limit is not None else stream.read()
        if limit is not None and len(raw) > limit:
            raise _too_large(limit)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return json.loads(raw.decode(encoding), parse_constant=_reject_constant)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"Malformed JSON: {exc}") from exc


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")
