"""Errors a workspace user can act on: each says what is wrong and what to do instead."""

from __future__ import annotations


class WorkspaceError(Exception):
    """Base class; ``message`` is shown to the person as is."""

    status_code = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(WorkspaceError):
    """The person's role does not allow this action (e.g. an annotator approving)."""

    status_code = 403


class NotVisible(WorkspaceError):
    """The item or annotation is outside what the person may see; pages answer 404."""

    status_code = 404


class InvalidState(WorkspaceError):
    """The action does not fit the annotation's status (e.g. editing an approved one)."""

    status_code = 409


class InvalidContent(WorkspaceError):
    """The draft cannot be saved or submitted as it is (bad line range, missing diagnosis...)."""


class FixNotPassing(InvalidState):
    """A fix goes to review only once the kernel in the editor has been judged and passed."""


class QueueFull(InvalidState):
    """The item already has as many annotators as its queue's overlap target."""
