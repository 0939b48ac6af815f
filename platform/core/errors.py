"""The error a person can act on, shared by every app; the API renders it as
{"code", "message", "fields"} with its status, the pages show it next to the form."""

from __future__ import annotations


class Rejected(Exception):
    """Raised when a request cannot be accepted as given; nothing was saved.

    ``code`` is stable (clients branch on it), ``message`` is for the person, ``fields`` names
    the inputs at fault. Subclasses set ``status_code``, and ``retry_after_s`` when waiting helps.
    """

    status_code = 400
    retry_after_s: int | None = None

    def __init__(self, code: str, message: str, fields: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}
