"""What an account may use: new accounts get the base allowances, trusted ones a multiple.

Signup is open and unverified, so a fresh account is the cheapest thing an abuser has: its
caps (evaluations pending, submissions a minute, worker time an hour) are the base settings,
and a person the operators trust — staff, or a member of the ``trusted`` group an
administrator grants — gets ``AKGEN_TRUSTED_FACTOR`` times each. One place answers "how much
may this account use", for the API, the pages, the limits report and the scheduler alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model

#: The auth group whose members get the trusted allowances.
TRUSTED_GROUP = "trusted"


@dataclass(frozen=True)
class Allowance:
    """One account's caps."""

    trusted: bool
    #: Evaluations queued or running at once.
    max_pending: int
    #: Submitting requests a minute, over all of the account's tokens and pages.
    submit_per_min: int
    #: Seconds of worker time (compile + run, wall clock) its evaluations may take per budget window.
    eval_budget_s: float
    #: The budget's window, in seconds.
    budget_window_s: int

    @property
    def tier(self) -> str:
        return "trusted" if self.trusted else "new"


def is_trusted(user) -> bool:
    """Staff, or in the TRUSTED_GROUP group."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.is_superuser or user.groups.filter(name=TRUSTED_GROUP).exists())


def allowance(user) -> Allowance:
    """The caps of ``user`` (a User)."""
    trusted = is_trusted(user)
    factor = max(1, int(settings.AKGEN_TRUSTED_FACTOR)) if trusted else 1
    return Allowance(
        trusted=trusted,
        max_pending=int(settings.AKGEN_MAX_PENDING_PER_USER) * factor,
        submit_per_min=int(settings.AKGEN_RATE_SUBMIT_USER_PER_MIN) * factor,
        eval_budget_s=float(settings.AKGEN_EVAL_BUDGET_S) * factor,
        budget_window_s=max(1, int(settings.AKGEN_EVAL_BUDGET_WINDOW_S)),
    )


def allowance_of_id(user_id: int | None) -> Allowance:
    """The caps of the user with this id (the base ones when there is none)."""
    user = get_user_model().objects.filter(pk=user_id).first() if user_id is not None else None
    return allowance(user)
