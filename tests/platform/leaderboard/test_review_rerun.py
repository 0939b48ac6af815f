"""A reviewer re-runs a flagged result from the review page: the copy is the reviewer's private
submission, made through the same intake as every other evaluation a person starts, so the
reviewer's own limits apply and the original result is left as judged."""

from __future__ import annotations

import uuid
from unittest import mock

import pytest

from leaderboard.models import RankedKernel
from submissions import intake
from submissions.models import Evaluation, Submission
from tests.platform.leaderboard.conftest import judge

pytestmark = pytest.mark.django_db


@pytest.fixture
def flagged(task, django_user_model):
    owner = django_user_model.objects.create_user("fast-owner")
    submission = judge(task=task, kernel="// too fast to be true\n", outcome="passed", speedup=40.0, author=owner)
    assert RankedKernel.objects.get(submission=submission).flagged
    return submission


@pytest.fixture
def staff(client, django_user_model, settings):
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
    user = django_user_model.objects.create_user("reviewer", password="pw-review-123", is_staff=True)
    client.force_login(user)
    return user


def test_a_rerun_is_the_reviewers_private_copy_and_leaves_the_original_alone(client, staff, flagged):
    before = Evaluation.objects.filter(submission=flagged).values("verdict", "speedup", "suspicious").get()
    assert "Re-run" in client.get("/leaderboard/review/").content.decode()
    with mock.patch.object(intake, "evaluation_send"):
        response = client.post("/leaderboard/review/", {"submission": flagged.pk, "action": "rerun"}, follow=True)
    copy = Submission.objects.exclude(pk=flagged.pk).get()
    assert response.redirect_chain[-1][0] == f"/submissions/{copy.pk}/"
    assert (copy.author, copy.visibility, copy.kernel_source, copy.task_id) == (
        staff, "private", flagged.kernel_source, flagged.task_id)
    assert copy.evaluations.get().status == "queued"
    assert f"judged again as your private #{copy.pk}" in response.content.decode()
    assert Evaluation.objects.filter(submission=flagged).values("verdict", "speedup", "suspicious").get() == before
    assert RankedKernel.objects.filter(submission=flagged, flagged=True).exists()  # still waits for review


def test_a_rerun_obeys_the_reviewers_pending_cap(client, staff, flagged, settings):
    settings.AKGEN_MAX_PENDING_PER_USER = 1
    settings.AKGEN_TRUSTED_FACTOR = 1  # staff are trusted: make the cap bite at 1
    with mock.patch.object(intake, "evaluation_send"):
        client.post("/leaderboard/review/", {"submission": flagged.pk, "action": "rerun"})
        response = client.post("/leaderboard/review/", {"submission": flagged.pk, "action": "rerun"}, follow=True)
    assert Submission.objects.exclude(pk=flagged.pk).count() == 1
    html = response.content.decode()
    assert response.redirect_chain[-1][0] == "/leaderboard/review/"
    assert "Not re-run: You have 1 evaluations queued or running; the limit is 1." in html


def test_only_staff_rerun(client, flagged, django_user_model):
    client.force_login(django_user_model.objects.create_user("someone"))
    response = client.post("/leaderboard/review/", {"submission": flagged.pk, "action": "rerun"})
    assert response.status_code == 403 and "needs <strong>a staff account</strong>" in response.content.decode()
    assert Submission.objects.count() == 1
