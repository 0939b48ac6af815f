"""JSON parsing with a size cap.

Older DRF versions read the body straight from the WSGI stream, bypassing Django's
DATA_UPLOAD_MAX_MEMORY_SIZE; DRF 3.18 goes through request.body (RequestDataTooBig, turned into a
JSON 413 by api.exceptions). The cap is enforced here as well so it holds either way.
"""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from api.errors import request_too_large
from core.input import MAX_JSON_DEPTH, json_depth_exceeds


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
                raise request_too_large()
        raw = stream.read(limit + 1) if limit is not None else stream.read()
        if limit is not None and len(raw) > limit:
            raise request_too_large()
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_reject_constant)
        except RecursionError:
            raise ParseError(f"Malformed JSON: nested deeper than {MAX_JSON_DEPTH} levels") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"Malformed JSON: {exc}") from exc
        if json_depth_exceeds(data):
            raise ParseError(f"Malformed JSON: nested deeper than {MAX_JSON_DEPTH} levels")
        return data


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")
