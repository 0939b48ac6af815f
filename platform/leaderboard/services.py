"""Human decisions about results: staff quarantine and lift, reviewers dismiss a flag or re-run
the result, anyone reports a result. Each is a row of its own (Quarantine, Dismissal, Report) that no rebuild
overwrites; what a decision changes in the numbers is recounted by leaderboard.aggregates, the
aggregates' only writer."""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from leaderboard import aggregates
from leaderboard.models import Dismissal, Quarantine, Report
from submissions.intake import Created, person_submit
from submissions.models import Submission, Visibility


class NotAllowed(Exception):
    """The user may not do this (e.g. quarantine without being staff)."""


class ReportRejected(Exception):
    """A report that cannot be filed as it is (empty reason, already quarantined …)."""


# --- quarantine and reports ------------------------------------------------------------------------


@transaction.atomic
def quarantine_submission(*, submission: Submission, reason: str, by, evidence: dict | None = None) -> Quarantine:
    """Hide a result from every ranking, keeping it and saying why to its owner."""
    if not getattr(by, "is_staff", False):
        raise NotAllowed("Only staff can quarantine results.")
    reason = (reason or "").strip()
    if not reason:
        raise ReportRejected("Say why the result is quarantined: its owner will read it.")
    found = {"reports": list(submission.reports.values("reporter_id", "reason", "created_at"))}
    record, _ = Quarantine.objects.update_or_create(
        submission=submission,
        defaults={"reason": reason, "created_by": by,
                  "evidence": json.loads(json.dumps({**found, **(evidence or {})}, cls=DjangoJSONEncoder))},
    )
    aggregates.recount_submission(submission)
    Report.objects.filter(submission=submission).update(resolved=True)
    return record


@transaction.atomic
def quarantine_lift(*, submission: Submission, by) -> None:
    if not getattr(by, "is_staff", False):
        raise NotAllowed("Only staff can lift a quarantine.")
    Quarantine.objects.filter(submission=submission).delete()
    aggregates.recount_submission(submission)


@transaction.atomic
def flag_dismiss(*, submission: Submission, by) -> Dismissal:
    """A reviewer checked a flagged (suspiciously fast) result and lets it stand: its speedup now
    counts and ranks, its reports are resolved, and no rebuild brings the flag back."""
    if not getattr(by, "is_staff", False):
        raise NotAllowed("Only staff can dismiss a flag.")
    record, _ = Dismissal.objects.get_or_create(submission=submission, defaults={"created_by": by})
    Report.objects.filter(submission=submission).update(resolved=True)
    aggregates.recount_submission(submission)  # its speedup is vouched for now: it counts
    return record


def review_rerun(*, submission: Submission, by) -> Created:
    """Judge a flagged or reported result again: the same sources become a private submission of
    the reviewer's, judged by the current evaluator on the task's current version.

    It goes through ``submissions.intake.person_submit`` like every other evaluation a person
    starts, so a reviewer's re-runs count against the same allowance, pending cap and worker-time
    budget (raises their ``Rejected`` subclasses). Private, so the copy never ranks in anyone's
    name; the original result is left exactly as judged.
    """
    if not getattr(by, "is_staff", False):
        raise NotAllowed("Only staff can re-run a result under review.")
    return person_submit(user=by, visibility=Visibility.PRIVATE, data={
        "task": submission.task.slug, "path": submission.path, "kernel": submission.kernel_source,
        "host": submission.host_source})


def report_submit(*, submission: Submission, reporter, reason: str) -> Report:
    reason = (reason or "").strip()
    if len(reason) < 10:
        raise ReportRejected("Describe the problem in a sentence (at least 10 characters) so staff can check it.")
    if Quarantine.objects.filter(submission=submission).exists():
        raise ReportRejected("This result is already quarantined.")
    return Report.objects.create(submission=submission, reporter=reporter, reason=reason[:2000])
