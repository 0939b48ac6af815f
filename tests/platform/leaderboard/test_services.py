"""Incremental aggregates equal a rebuild from scratch, and quarantine corrects them."""

from __future__ import annotations

import math

import pytest

from bench_runner.contracts import SUSPICIOUS_SPEEDUP
from leaderboard import aggregates, services
from leaderboard.models import FailureCount, Quarantine, RankedKernel, RunTaskStat
from leaderboard.task_stats import with_task_counts
from submissions.models import Submission
from tasks.models import Task
from tests.platform.leaderboard.conftest import judge

pytestmark = pytest.mark.django_db


def snapshot() -> dict:
    def rounded(v):
        return round(v, 9) if isinstance(v, float) else v

    stats = sorted(tuple(rounded(v) for v in row) for row in RunTaskStat.objects.values_list(
        "run_id", "task_id", "path", "toolchain", "soc", "n", "n_compiled", "n_passed", "best_speedup",
        "speedup_count", "speedup_sum", "speedup_log_sum"))
    fails = sorted(FailureCount.objects.values_list("run_id", "toolchain", "category", "count"),
                   key=lambda r: (r[0] or 0, r[1], r[2]))
    ranked = sorted(RankedKernel.objects.values_list("evaluation_id", "task_id", "author_id", "run_id", "speedup",
                                                     "flagged", "quarantined"))
    return {"stats": stats, "fails": fails, "ranked": ranked}


def test_incremental_counting_equals_a_rebuild(seeded):
    ada = seeded.people[0]
    judge(task=seeded.tasks[0], kernel="// ada 1", outcome="passed", speedup=1.7, author=ada)
    judge(task=seeded.tasks[0], kernel="// ada 2", outcome="api_mismatch", author=ada)
    judge(task=seeded.tasks[1], kernel="// ada 3", outcome="passed", speedup=1.2, author=ada, visibility="private")
    incremental = snapshot()
    assert incremental["stats"] and incremental["fails"] and incremental["ranked"]
    counts = aggregates.rebuild()
    assert snapshot() == incremental
    assert counts["run_task_stats"] == len(incremental["stats"])


def test_counts_match_the_raw_samples(seeded):
    for (run_id, task_id), samples in seeded.samples.items():
        row = RunTaskStat.objects.get(run_id=run_id, task_id=task_id)
        passed = [s for o, s in samples if o == "passed"]
        assert row.n == len(samples)
        assert row.n_passed == len(passed)
        assert row.n_compiled == sum(1 for o, _ in samples if o not in ("compile_error", "api_mismatch"))
        assert row.best_speedup == (max(passed) if passed else None)
        assert row.speedup_log_sum == pytest.approx(sum(math.log(s) for s in passed))
    run = seeded.runs[0]
    expected = {}
    for (run_id, _), samples in seeded.samples.items():
        if run_id == run.pk:
            for outcome, _ in samples:
                category = {"wrong_answer": "numerical_mismatch", "compile_error": "undeclared",
                            "api_mismatch": "api_mismatch", "runtime_error": "ub_capacity"}.get(outcome)
                if category:
                    expected[category] = expected.get(category, 0) + 1
    got = dict(FailureCount.objects.filter(run=run).values_list("category", "count"))
    assert got == expected


def test_quarantine_hides_a_result_and_lifting_restores_it(seeded, django_user_model):
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    ranked = RankedKernel.objects.order_by("-speedup").first()  # the best on its task, so the list shows it
    run = ranked.run
    submission = Submission.objects.get(pk=ranked.submission_id)
    before = RunTaskStat.objects.get(run=run, task=submission.task)
    with pytest.raises(services.NotAllowed):
        services.quarantine_submission(submission=submission, reason="too fast", by=seeded.people[0])
    with pytest.raises(services.ReportRejected):
        services.quarantine_submission(submission=submission, reason="  ", by=staff)
    services.report_submit(submission=submission, reporter=seeded.people[0], reason="It skips the second half.")
    services.quarantine_submission(submission=submission, reason="Reads the expected output.", by=staff)
    after = RunTaskStat.objects.get(run=run, task=submission.task)
    listed = with_task_counts(Task.objects.filter(pk=submission.task_id)).get()
    assert listed.best_speedup is not None and listed.best_speedup < ranked.speedup  # the task list follows
    assert (after.n, after.n_passed) == (before.n - 1, before.n_passed - 1)
    assert RankedKernel.objects.get(evaluation_id=ranked.evaluation_id).quarantined
    record = Quarantine.objects.get(submission=submission)
    assert record.evidence["reports"][0]["reason"] == "It skips the second half."
    assert submission.reports.get().resolved
    # A rebuild keeps the quarantine out too.
    quarantined = snapshot()
    aggregates.rebuild()
    assert snapshot() == quarantined
    with pytest.raises(services.ReportRejected, match="already quarantined"):
        services.report_submit(submission=submission, reporter=seeded.people[1], reason="Same thing again here.")
    services.quarantine_lift(submission=submission, by=staff)
    restored = RunTaskStat.objects.get(run=run, task=submission.task)
    assert (restored.n, restored.n_passed) == (before.n, before.n_passed)


def test_suspicious_speedups_are_flagged(db, task, user):
    judge(task=task, kernel="// quick", outcome="passed", speedup=SUSPICIOUS_SPEEDUP * 4, author=user)
    judge(task=task, kernel="// fair", outcome="passed", speedup=1.5, author=user)
    assert sorted(RankedKernel.objects.values_list("speedup", "flagged")) == [(1.5, False), (SUSPICIOUS_SPEEDUP * 4, True)]
