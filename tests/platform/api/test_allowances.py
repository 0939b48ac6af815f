"""Allowances by account tier, and the per-account worker-time budget (issue 17).

New accounts get the base caps; staff and members of the ``trusted`` group get
AKGEN_TRUSTED_FACTOR times each. Worker time is counted from the evaluations' own start and
finish times, so the budget and the fair scheduler see what each account really burnt.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import ratelimit, tiers
from submissions.models import EvalStatus, Evaluation, Submission
from submissions.selectors import worker_seconds_by_author
from tests.platform.factories import make_task
from workers import pipeline

KERNEL = "extern \"C\" __global__ __aicore__ void k() {}\n"
URL = "/api/v1/submissions/"


def _client(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _burnt(task, author, seconds: list[float], *, running: float | None = None, ago_s: float = 60.0):
    """Evaluations of ``author`` that took ``seconds`` each (and one running for ``running`` s)."""
    now = timezone.now()
    rows = [(s, EvalStatus.DONE) for s in seconds] + ([(running, EvalStatus.RUNNING)] if running else [])
    for i, (took, status) in enumerate(rows):
        sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                        kernel_source=f"// burnt {author.pk} {i} {took}\n",
                                        sha256=f"b{author.pk}x{i}".ljust(64, "0"), author=author)
        started = now - timedelta(seconds=ago_s if status == EvalStatus.DONE else took)
        Evaluation.objects.create(submission=sub, status=status, started_at=started, enqueued_at=started,
                                  finished_at=started + timedelta(seconds=took) if status == EvalStatus.DONE else None,
                                  verdict="passed" if status == EvalStatus.DONE else "")


@pytest.mark.django_db
def test_tiers_new_trusted_and_staff(settings):
    settings.AKGEN_MAX_PENDING_PER_USER, settings.AKGEN_RATE_SUBMIT_USER_PER_MIN = 10, 6
    settings.AKGEN_EVAL_BUDGET_S, settings.AKGEN_TRUSTED_FACTOR = 100, 8
    users = get_user_model().objects
    new, member, staff = users.create_user("new"), users.create_user("member"), users.create_user("boss", is_staff=True)
    Group.objects.create(name=tiers.TRUSTED_GROUP).user_set.add(member)
    assert tiers.allowance(new) == tiers.Allowance(False, 10, 6, 100.0, settings.AKGEN_EVAL_BUDGET_WINDOW_S)
    for u in (member, staff):
        a = tiers.allowance(u)
        assert (a.tier, a.max_pending, a.submit_per_min, a.eval_budget_s) == ("trusted", 80, 48, 800.0)
    assert ratelimit.limits_for("submit", user_id=new.pk, token_id=None)[0].limit == 6
    assert ratelimit.limits_for("submit", user_id=member.pk, token_id=None)[0].limit == 48


@pytest.mark.django_db
def test_worker_seconds_count_finished_and_running_attempts_only():
    users = get_user_model().objects
    a, b = users.create_user("a"), users.create_user("b")
    task = make_task("burn")
    _burnt(task, a, [10.0, 5.0], running=30.0)
    _burnt(task, b, [2.0])
    _burnt(task, b, [500.0], ago_s=7200)  # started before the window
    sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                    kernel_source="// queued\n", sha256="q".ljust(64, "0"), author=b)
    Evaluation.objects.create(submission=sub, status=EvalStatus.QUEUED, started_at=timezone.now() - timedelta(seconds=50))
    used = worker_seconds_by_author(since=timezone.now() - timedelta(hours=1))
    assert used[a.pk] == pytest.approx(45.0, abs=2.0)
    assert used[b.pk] == pytest.approx(2.0, abs=0.01)
    assert worker_seconds_by_author(since=timezone.now() - timedelta(hours=1), authors=[b.pk]) == {b.pk: used[b.pk]}


@pytest.mark.django_db
def test_an_account_over_its_budget_gets_429_and_keeps_what_is_queued(task, user, make_key, settings, no_sends):
    settings.AKGEN_EVAL_BUDGET_S = 60
    _burnt(task, user, [40.0, 30.0])
    client = _client(make_key(user))
    response = client.post(URL, {"task": "add", "path": "device_only", "kernel": KERNEL}, format="json")
    assert response.status_code == 429, response.json()
    body = response.json()
    assert body["code"] == "over_time_budget" and "budget is 1 min" in body["message"]
    assert 1 <= int(response["Retry-After"]) <= settings.AKGEN_EVAL_BUDGET_WINDOW_S
    assert Submission.objects.filter(author=user).count() == 2 and not no_sends.called
    me = client.get("/api/v1/me/").json()
    assert me["tier"] == "new" and me["worker_time"]["used_s"] == pytest.approx(70.0, abs=1)
    # a batch: every new item is refused the same way, nothing is lost
    items = [{"task": "add", "path": "device_only", "kernel": KERNEL + f"// {i}\n"} for i in range(3)]
    batch = client.post("/api/v1/submissions/batch/", {"submissions": items}, format="json").json()
    assert [r["status_code"] for r in batch["results"]] == [429, 429, 429], batch
    assert {r["error"]["code"] for r in batch["results"]} == {"over_time_budget"}
    # the same usage is within a trusted account's budget
    Group.objects.get_or_create(name=tiers.TRUSTED_GROUP)[0].user_set.add(user)
    assert client.post(URL, {"task": "add", "path": "device_only", "kernel": KERNEL}, format="json").status_code == 201


@pytest.mark.django_db
def test_the_scheduler_serves_who_burnt_least_worker_time_not_fewest_evaluations():
    users = get_user_model().objects
    bomber, busy = users.create_user("bomber"), users.create_user("busy")
    task = make_task("fair_time")
    _burnt(task, bomber, [110.0])  # one compile bomb
    _burnt(task, busy, [1.0] * 6)  # six quick kernels
    at = timezone.now() - timedelta(seconds=30)
    queued = {}
    for who in (bomber, busy):
        sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                        kernel_source=f"// next {who.pk}\n", sha256=f"n{who.pk}".ljust(64, "0"),
                                        author=who)
        queued[who.username] = Evaluation.objects.create(submission=sub, enqueued_at=at if who == bomber else timezone.now())
    claim = pipeline.evaluation_claim_fair(toolchain="cpu-sim", worker="w")
    assert claim.evaluation_id == queued["busy"].pk  # 6 s burnt beats 110 s, though the bomber waited longer


@pytest.mark.django_db
def test_the_profile_shows_worker_time_and_tier(client, user, task, settings):
    _burnt(task, user, [90.0])
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'data-testid="worker-time">2<' in page and "/ 30 min" in page  # 90 s of 1800 s, rounded
    assert "new account" in page
    Group.objects.get_or_create(name=tiers.TRUSTED_GROUP)[0].user_set.add(user)
    page = client.get("/accounts/profile/").content.decode()
    assert "trusted account" in page and "/ 240 min" in page
