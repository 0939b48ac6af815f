"""Errors a submitter can act on; the API renders them as {"code", "message", "fields"}."""

from __future__ import annotations


class SubmissionRejected(Exception):
    """The submission cannot be accepted as given; nothing was saved."""

    status_code = 400

    def __init__(self, code: str, message: str, fields: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}


class SourceTooLarge(SubmissionRejected):
    status_code = 413


class UnknownTask(SubmissionRejected):
    status_code = 404
