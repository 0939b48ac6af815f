"""A lost worker is one rule (submissions.waiting.lease_expired): the database's filter and the
row-by-row check agree on every kind of row, and nothing else spells it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from submissions.models import EvalStatus, Evaluation, Submission
from submissions.waiting import lease_expired, queue_health, worker_lost


@pytest.mark.django_db
def test_the_filter_and_the_row_check_agree_on_every_kind_of_row(task):
    now = timezone.now()
    kinds = {
        "running, lease ran out": (EvalStatus.RUNNING, now - timedelta(seconds=5)),
        "running, lease ahead": (EvalStatus.RUNNING, now + timedelta(minutes=1)),
        "running, no lease": (EvalStatus.RUNNING, None),
        "queued, old lease": (EvalStatus.QUEUED, now - timedelta(seconds=5)),
        "done, old lease": (EvalStatus.DONE, now - timedelta(seconds=5)),
    }
    rows = {}
    for i, (name, (status, lease_until)) in enumerate(kinds.items()):
        sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                        kernel_source=f"// k{i}\n", sha256=f"{i:064d}")
        rows[name] = Evaluation.objects.create(submission=sub, status=status, lease_until=lease_until,
                                               enqueued_at=now)
    in_db = set(Evaluation.objects.filter(lease_expired(now)).values_list("pk", flat=True))
    by_row = {row.pk for row in rows.values() if worker_lost(row, now)}
    assert in_db == by_row == {rows["running, lease ran out"].pk}
    assert queue_health().expired_leases == 1
