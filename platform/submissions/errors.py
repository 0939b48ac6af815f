"""Errors a submitter can act on; the API renders them as {"code", "message", "fields"}."""

from __future__ import annotations

from core.errors import Rejected


class SubmissionRejected(Rejected):
    """Raised when the submission (or the model or run it names) cannot be accepted as given;
    nothing was saved."""


class SourceTooLarge(SubmissionRejected):
    """Raised when a source is over MAX_SOURCE_BYTES (answered as 413)."""

    status_code = 413


class UnknownTask(SubmissionRejected):
    """Raised when no task in the suite has that slug (answered as 404)."""

    status_code = 404


class NotYours(SubmissionRejected):
    """A referenced model or run does not exist or belongs to someone else (answered as 404)."""

    status_code = 404


class Conflict(SubmissionRejected):
    """The name is taken (answered as 409)."""

    status_code = 409


class TooManyPending(Rejected):
    """Raised when the user already has as many evaluations queued or running as one may
    (AKGEN_MAX_PENDING_PER_USER); nothing was saved (answered as 429 with Retry-After)."""

    status_code = 429
    retry_after_s = 30  # evaluations take seconds to minutes; try again later

    def __init__(self, message: str, *, pending: int, cap: int) -> None:
        super().__init__("too_many_pending", message, {"pending": str(pending), "cap": str(cap)})
        self.pending = pending
        self.cap = cap


class SubmittingTooFast(Rejected):
    """Raised when a person submits more often per minute than their allowance (answered as 429)."""

    status_code = 429

    def __init__(self, *, limit: int, retry_after_s: int) -> None:
        super().__init__("rate_limited", f"You have reached {limit} submissions a minute, the most allowed. "
                         f"Try again in {retry_after_s} s.", {})
        self.limit = limit
        self.retry_after_s = retry_after_s


class OutOfBudget(Rejected):
    """Raised when the account's evaluations already took its worker-time budget for the window
    (accounts.tiers); nothing was saved, what is queued still runs (answered as 429)."""

    status_code = 429

    def __init__(self, *, used_s: float, budget_s: float, window_s: int, retry_after_s: int) -> None:
        super().__init__(
            "over_time_budget",
            f"Your evaluations took {used_s / 60:.0f} min of worker time in the last {window_s // 60} min; "
            f"the budget is {budget_s / 60:.0f} min. What is queued still runs; new submissions are "
            f"accepted again in about {max(1, retry_after_s // 60)} min (ask an administrator for a trusted "
            "account if you need more).",
            {"used_s": f"{used_s:.0f}", "budget_s": f"{budget_s:.0f}"})
        self.retry_after_s = retry_after_s
