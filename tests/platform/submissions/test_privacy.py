"""What an anonymous reader, another user, the owner and staff get of a submission, from its pages
and from the API (issue #30): one visibility rule (submissions.selectors.visibility_q) decides
who opens it, one answer (submissions.selectors.shown_to) what of it they read, so the API never
hands anyone a field the page keeps from them."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import token_create
from submissions import intake
from submissions.models import REFUSED_PREFIX, EvalStatus, LanguageModel, Run
from tests.platform.tasks.samples import EXPERT, WRONG_ANSWER, judge_row, make_add_task
from workers import pipeline

pytestmark = pytest.mark.django_db

SECRET = "PRIVATE_KERNEL_5e1f"
THOUGHT = "I split the 2048 elements over 8 cores first"
INFRA = "worker gpu-host-7.internal:4242 lost its scratch dir /srv/akgen/scratch/job-99"
REFUSAL = f"{REFUSED_PREFIX}the host source is over 64 KiB.\nsecond line for staff"


@pytest.fixture(autouse=True)
def own_rate_counters(settings):
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def people(db) -> dict:
    users = get_user_model().objects
    return {"owner": users.create_user("owner", password="pw-owner-1"),
            "other": users.create_user("other", password="pw-other-1"),
            "staff": users.create_user("staff", password="pw-staff-1", is_staff=True)}


@pytest.fixture
def world(people) -> dict:
    """A run with a public sample (with reasoning, judged) and a private one, and two of the
    owner's one-off submissions whose judging failed: one refused, one lost to the infrastructure."""
    make_add_task()
    owner = people["owner"]
    run = Run.objects.create(model=LanguageModel.objects.create(owner=owner, name="m-7b"), name="k2",
                             samples_per_task=2)
    public = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT + "// public\n",
                                      author=owner, run=run, sample_index=0, reasoning=THOUGHT)
    judge_row(public.evaluation, WRONG_ANSWER)
    private = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT + f"// {SECRET}\n",
                                       author=owner, run=run, sample_index=1, visibility="private",
                                       reasoning=f"my private thoughts {SECRET}")
    judge_row(private.evaluation, WRONG_ANSWER)
    failed = {}
    for name, error in (("refused", REFUSAL), ("infra", INFRA)):
        created = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT + f"// {name}\n",
                                           author=owner)
        created.evaluation.__class__.objects.filter(pk=created.evaluation.pk).update(
            status=EvalStatus.FAILED, error=error, verdict="")
        failed[name] = created.submission
    return {"run": run, "public": public.submission, "private": private.submission, **failed}


def _page_client(people, who: str) -> Client:
    client = Client()
    if who != "anonymous":
        client.force_login(people[who])
    return client


def _api_client(people, who: str) -> APIClient:
    client = APIClient()
    if who != "anonymous":
        key = token_create(user=people[who], name="t", scopes=["read"]).key
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


VIEWERS = ["anonymous", "other", "owner", "staff"]
#: Who opens a private submission: its author and staff; everyone else gets a 404 (as if it did not exist).
OPENS_PRIVATE = {"anonymous": False, "other": False, "owner": True, "staff": True}


def _page_urls(sub, other) -> list[str]:
    return [f"/submissions/{sub.pk}/", f"/submissions/{sub.pk}/status/", f"/submissions/{sub.pk}/compile.log",
            f"/submissions/{sub.pk}/diff/?against=template", f"/submissions/{other.pk}/diff/?against={sub.pk}",
            f"/submissions/compare/?a={sub.pk}&b={other.pk}"]


@pytest.mark.parametrize("who", VIEWERS)
def test_a_private_submission_opens_for_its_owner_and_staff_only_on_pages_and_api(people, world, who):
    private, public = world["private"], world["public"]
    pages, api = _page_client(people, who), _api_client(people, who)
    want = 200 if OPENS_PRIVATE[who] else 404
    for url in _page_urls(private, public):
        response = pages.get(url)
        assert response.status_code == want, (who, url)
        if want == 404:
            assert SECRET not in response.content.decode(), (who, url)
    detail = api.get(f"/api/v1/submissions/{private.pk}/")
    assert detail.status_code == want, who
    if want == 200:
        assert SECRET in detail.json()["kernel"]
    else:
        assert SECRET not in detail.content.decode()
    # Lists: the task's submissions page, the run's page, the API's list.
    listed = pages.get("/tasks/add/submissions/").content.decode()
    assert (f'/submissions/{private.pk}/"' in listed) == OPENS_PRIVATE[who], who
    assert f'/submissions/{public.pk}/"' in listed
    run_page = pages.get(f"/runs/{world['run'].pk}/").content.decode()
    assert (f'/submissions/{private.pk}/"' in run_page) == OPENS_PRIVATE[who], who  # its verdict shows, not its code
    assert SECRET not in run_page
    ids = {row["id"] for row in api.get("/api/v1/submissions/?limit=100").json()["results"]}
    assert (private.pk in ids) == (who == "owner"), who  # a key lists its owner's; no key, the public ones
    assert (public.pk in ids) == (who in ("anonymous", "owner")), who


@pytest.mark.parametrize("who", VIEWERS)
def test_the_api_shows_each_reader_exactly_the_fields_the_page_shows(people, world, who):
    """Every field of an API read of a submission is on its page for the same reader (the
    mapping below must name each one: a new API field fails here until the page shows it too)."""
    sub = world["public"]
    data = _api_client(people, who).get(f"/api/v1/submissions/{sub.pk}/").json()
    page = html.unescape(_page_client(people, who).get(f"/submissions/{sub.pk}/").content.decode())
    [ev] = data["evaluations"]
    on_page = {
        "id": f"Submission #{data['id']}" in page,
        "url": data["url"].endswith(f"/api/v1/submissions/{sub.pk}/"),  # the API's own address, no data
        "task": f'href="/tasks/{data["task"]}/"' in page,
        "task_version": data["task_version"] in page,
        "path": data["path"] == "device_only" and '<span class="chip">device only</span>' in page,
        "run": f'href="/runs/{data["run"]}/"' in page,
        "sample_index": f"m-7b / k2 #{data['sample_index']}" in page,
        "visibility": f'<span class="chip">{data["visibility"]}</span>' in page,
        "sha256": data["sha256"] in page,
        "created_at": sub.created_at.strftime("%Y-%m-%d %H:%M:%S") in page,
        "status": f'data-status="{data["status"]}"' in page,
        "verdict": f'data-verdict="{data["verdict"]}"' in page,
        "result": data["result"]["reason"] in page,
        "queue_position": data["queue_position"] is None,  # shown only while queued ("2 in the queue")
        "evaluations": ev["toolchain"] in page and ev["verdict"] == data["verdict"] and ev["error"] == "",
        "kernel": "// public" in page and "KernelAdd" in page,
        "host": data["host"] is None,
        "reasoning": data["reasoning"] == THOUGHT and 'data-testid="reasoning"' in page and THOUGHT in page,
    }
    assert set(data) == set(on_page), set(data) ^ set(on_page)
    assert [field for field, shown in on_page.items() if not shown] == [], who


@pytest.mark.parametrize("who", VIEWERS)
def test_an_unjudged_evaluations_error_is_staffs_except_the_evaluators_refusal(people, world, who):
    pages, api = _page_client(people, who), _api_client(people, who)
    staff = who == "staff"
    refused = world["refused"]
    [ev] = api.get(f"/api/v1/submissions/{refused.pk}/").json()["evaluations"]
    assert ev["error"] == (REFUSAL if staff else REFUSAL.splitlines()[0])
    page = html.unescape(pages.get(f"/submissions/{refused.pk}/").content.decode())
    assert REFUSAL.splitlines()[0] in page and ("second line for staff" in page) == staff

    infra = world["infra"]
    [ev] = api.get(f"/api/v1/submissions/{infra.pk}/").json()["evaluations"]
    assert ev["error"] == (INFRA if staff else "")
    page = html.unescape(pages.get(f"/submissions/{infra.pk}/").content.decode())
    assert (INFRA in page) == staff and ("gpu-host-7" in page) == staff


@pytest.mark.parametrize("who", VIEWERS)
def test_the_judging_workers_host_name_is_staffs(people, world, who):
    created = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT + "// running\n",
                                       author=people["owner"])
    claim = pipeline.evaluation_claim(evaluation_id=created.evaluation.pk, worker="gpu-host-7:4242/thread-1")
    pipeline.evaluation_set_stage(claim, "compile")
    client = _page_client(people, who)
    for url in (f"/submissions/{created.submission.pk}/", f"/submissions/{created.submission.pk}/status/"):
        text = client.get(url).content.decode()
        assert "Compiling" in text
        assert ("gpu-host-7" in text) == (who == "staff"), (who, url)
        assert who == "staff" or re.search(r"on a worker", text)
