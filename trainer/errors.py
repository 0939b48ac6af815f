"""The trainer's one exception: bad input found before any compute is spent."""

from __future__ import annotations


class TrainerInputError(Exception):
    """A release, config, model path or chat template that cannot be trained on; the message
    says which file or field and what was expected."""
