"""One exception tree for the evaluator.

Failures of a *submission* (it does not compile, it is wrong, it is slow) are not exceptions: they
are verdicts in the result object. Exceptions here mean the evaluator could not do its job, either
because the caller gave it something unusable (:class:`InputError` and subclasses, exit status 2
on the command line) or because the machine failed (:class:`InfrastructureError`, worth a retry).
"""

from __future__ import annotations


class AkgenError(Exception):
    """Raised for every evaluator failure that is not a verdict; catch this at the boundary."""


class InputError(AkgenError):
    """Raised when the caller's input cannot be evaluated (unknown task, missing file, wrong path)."""


class UnknownTaskError(InputError):
    """Raised when a task slug names no task in the suite."""

    def __init__(self, slug: str, known: list[str]) -> None:
        hint = ", ".join(known[:12]) + (" …" if len(known) > 12 else "")
        super().__init__(f"unknown task {slug!r}; known tasks: {hint or '(none)'}")
        self.slug = slug


class TaskFormatError(InputError):
    """Raised when a task folder is malformed; names the file, the field and what was expected."""

    def __init__(self, file: str, field: str, expected: str, got: object = None) -> None:
        detail = f"{file}: field {field!r}: expected {expected}"
        if got is not None:
            detail += f", got {got!r}"
        super().__init__(detail)
        self.file = file
        self.field = field
        self.expected = expected
        #: The task folder's name, set by the loader (a file may sit in template/ or expert/).
        self.slug: str | None = None


class SubmissionError(InputError):
    """Raised when a submission does not fit the task (path not offered, missing host file, bad encoding)."""


class InfrastructureError(AkgenError):
    """Raised when the evaluator itself failed (toolchain missing, sandbox broken, disk full)."""


class ToolchainUnavailableError(InfrastructureError):
    """Raised when a toolchain is asked to work on a host that cannot serve it."""
