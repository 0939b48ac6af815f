"""Submission pages on the real database, with evaluations moved through the worker's own calls."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from bench_runner.contracts import EvaluationResult
from submissions import intake
from submissions.models import Evaluation, LanguageModel, Run
from tests.platform.tasks.samples import (
    ADD_LINE,
    BROKEN,
    COMPILE_ERROR,
    EXPERT,
    PASSED,
    WRONG,
    WRONG_ANSWER,
    judge_row,
    make_add_task,
)
from workers import pipeline

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Rate counters live in a shared Redis: keep this test's apart from everyone else's.
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"


@pytest.fixture
def add(db):
    return make_add_task()


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", password="pw-bob-123456")


def _submit(user, kernel=EXPERT, *, visibility="public", result=None, task_slug="add"):
    created = intake.submission_create(task_slug=task_slug, path="device_only", kernel=kernel, author=user,
                                         visibility=visibility)
    if result is not None:
        judge_row(created.evaluation, result)
    return created.submission


def _status(client, submission):
    return client.get(f"/submissions/{submission.pk}/status/", headers={"HX-Request": "true"})


# --- the live status partial ---------------------------------------------------------------


def test_status_partial_polls_until_the_verdict_then_stops(client, add, user):
    submission = _submit(user)
    evaluation = submission.evaluations.get()
    client.force_login(user)

    queued = _status(client, submission).content.decode()
    assert 'hx-trigger="every 1s"' in queued
    assert 'data-status="queued"' in queued and "Next in the queue" in queued
    assert 'data-step="queued" aria-current="step"' in queued

    claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w1/t")
    pipeline.evaluation_set_stage(claim, "compile")
    compiling = _status(client, submission).content.decode()
    assert 'hx-trigger="every 1s"' in compiling
    assert 'data-step="compiling" aria-current="step"' in compiling
    # The worker's host name is staff's (as on /healthz): its submitter reads "a worker".
    assert "Compiling…" in compiling and "on a worker" in compiling and "w1/t" not in compiling

    pipeline.evaluation_set_stage(claim, "run")
    running = _status(client, submission).content.decode()
    assert 'data-step="running" aria-current="step"' in running
    assert "Running cases…" in running

    pipeline.evaluation_finish(claim, EvaluationResult.from_dict(WRONG_ANSWER))
    response = _status(client, submission)
    done = response.content.decode()
    assert "hx-trigger" not in done  # polling stops
    assert 'data-verdict="wrong_answer"' in done
    assert "no-cache" in response["Cache-Control"]
    # The listing is swapped out of band so its lines can be marked.
    assert re.search(r'<section id="sources"[^>]* hx-swap-oob="true"', done)


def test_a_pass_unlocks_the_expert_diff_without_a_reload(client, add, user):
    """The page shows the expert link locked while judging; the verdict's partial swaps it in."""
    submission = _submit(user)
    client.force_login(user)
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert 'data-testid="expert-locked"' in page and 'id="expert-diff-link"' in page
    assert "expert-diff-link" not in _status(client, submission).content.decode()  # still judging: no swap
    claim = pipeline.evaluation_claim(evaluation_id=submission.evaluations.get().pk, worker="w1/t")
    pipeline.evaluation_finish(claim, EvaluationResult.from_dict({"verdict": "passed", "speedup": 1.0}))
    done = _status(client, submission).content.decode()
    assert re.search(r'<span id="expert-diff-link" hx-swap-oob="true"><a [^>]*data-testid="diff-expert"', done)


def test_a_lost_worker_is_explained_while_it_waits(client, add, user):
    from datetime import timedelta

    from django.utils import timezone

    submission = _submit(user)
    client.force_login(user)
    claim = pipeline.evaluation_claim(evaluation_id=submission.evaluations.get().pk, worker="w9/t")
    assert 'data-testid="worker-lost"' not in _status(client, submission).content.decode()
    submission.evaluations.filter(pk=claim.evaluation_id).update(lease_until=timezone.now() - timedelta(seconds=5))
    html = _status(client, submission).content.decode()
    assert 'data-testid="worker-lost"' in html and "stopped answering" in html and "w9/t" not in html


def test_a_wrong_answer_page_gives_a_replay_command(client, add, user):
    submission = _submit(user)
    client.force_login(user)
    claim = pipeline.evaluation_claim(evaluation_id=submission.evaluations.get().pk, worker="w1/t")
    wrong = {**WRONG_ANSWER, "seeds": {"master": 424242, "trials": {}}}
    pipeline.evaluation_finish(claim, EvaluationResult.from_dict(wrong))
    html = client.get(f"/submissions/{submission.pk}/").content.decode()
    replay = html.split('data-testid="replay"', 1)[1].split("</div>", 1)[0]
    assert "akgen eval --task add --kernel kernel.cpp --seed 424242" in replay
    assert "(the first failing trial)" in html  # which trial the result line is from


def test_status_partial_counts_the_queue(client, add, user):
    first = _submit(user)
    second = _submit(user, kernel=EXPERT + "// 2\n")
    client.force_login(user)
    assert "Next in the queue" in _status(client, first).content.decode()
    assert "2 in the queue" in _status(client, second).content.decode()


def test_infrastructure_failure_is_explained_and_not_blamed_on_the_kernel(client, add, user):
    submission = _submit(user)
    evaluation = submission.evaluations.get()
    for _ in range(pipeline.MAX_INFRA_FAILURES):
        claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w")
        pipeline.evaluation_fail_infra(claim, "RuntimeError: disk full\n/secret/path")
    html = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert 'data-verdict="system_error"' in html
    assert "not a verdict on your kernel" in html
    assert "/secret/path" not in html  # tracebacks are for staff


def test_a_refused_input_ends_unjudged_at_once_and_says_why(client, add, user):
    submission = _submit(user)
    evaluation = submission.evaluations.get()
    claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="w")
    pipeline.evaluation_fail_unusable(claim, "unknown task 'add'; known tasks: abs_fp16")
    evaluation.refresh_from_db()
    assert (evaluation.status, evaluation.verdict, evaluation.infra_failures) == ("failed", "system_error", 0)
    client.force_login(user)
    html = _status(client, submission).content.decode()
    assert 'data-verdict="system_error"' in html and "unknown task &#x27;add&#x27;" in html


def test_a_long_wait_is_called_out_on_the_page(client, add, user, settings):
    submission = _submit(user)
    client.force_login(user)
    assert 'data-testid="overdue"' not in _status(client, submission).content.decode()
    late = timezone.now() - timedelta(seconds=settings.AKGEN_EVAL_OVERDUE_S + 30)
    Evaluation.objects.filter(submission=submission).update(enqueued_at=late)
    html = _status(client, submission).content.decode()
    assert 'data-testid="overdue"' in html and "much longer than usual" in html


# --- the result page -----------------------------------------------------------------------------


def test_passed_result_shows_cases_perf_timeline_and_speedup(client, add, user):
    submission = _submit(user, result=PASSED)
    html = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert 'data-verdict="passed"' in html
    assert "hx-trigger" not in html
    assert "3/3" in html
    assert "70,920" in html and "74,330" in html  # modelled and baseline cycles, summed over cases
    assert "58,200" in html  # a case's own cycles
    assert 'data-testid="speedup">1.05×' in html
    assert 'data-chart="timeline"' in html
    assert '<script id="timeline-data" type="application/json">' in html
    assert 'data-testid="pipes"' in html and ">MTE2<" in html
    assert '<span class="n">add_custom</span>' in html  # highlighted listing
    assert f'id="k-L{ADD_LINE}"' in html


def test_result_page_queries_do_not_grow_with_history(client, add, user, django_assert_max_num_queries):
    for i in range(15):
        _submit(user, kernel=EXPERT + f"// {i}\n", result=PASSED)
    latest = _submit(user, kernel=BROKEN, result=COMPILE_ERROR)
    client.force_login(user)
    with django_assert_max_num_queries(12):
        response = client.get(f"/submissions/{latest.pk}/")
    assert len(response.context["relatives"]) == 15
    with django_assert_max_num_queries(8):
        _status(client, latest)


def test_compile_error_links_log_lines_and_marks_the_source(client, add, user):
    submission = _submit(user, kernel=BROKEN, result=COMPILE_ERROR)
    html = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert 'data-verdict="compile_error"' in html
    assert f'<a href="#k-L{ADD_LINE}" data-line-link="k-L{ADD_LINE}">kernel.cpp:{ADD_LINE}:42</a>' in html
    assert 'class="log-line log-error"' in html
    # The emulator header is not one of the submitted files: not linked.
    assert 'href="#k-L812"' not in html
    assert f'<tr id="k-L{ADD_LINE}" class="mark-error">' in html
    assert "was not declared in this scope" in html
    assert re.search(r'class="category category-error"[^>]*>[^<]+</span>', html)
    # No case ran, so no "not run" rows pretend otherwise.
    assert 'data-testid="cases"' not in html


def test_wrong_answer_shows_failing_cases(client, add, user):
    submission = _submit(user, kernel=WRONG, result=WRONG_ANSWER)
    response = client.get(f"/submissions/{submission.pk}/")
    html = response.content.decode()
    ev = response.context["ev"]
    # Judging stops at the first failing case; the others are listed as not run.
    assert [(c.name, c.passed) for c in ev.cases] == [("small", False), ("medium", None), ("large", None)]
    assert "✗ fail" in html and "2.871" in html and "2,048" in html and "not run" in html
    assert 'data-testid="reason"' in html
    assert "seed 1 (the case&#x27;s listed seed): z: 2048 of 2048 elements differ" in html
    assert f'<tr id="k-L{ADD_LINE}" class="mark-warning">' in html  # the warning line


@pytest.mark.parametrize(
    "result",
    [
        {},
        {"verdict": "passed"},
        {"verdict": "wrong_answer", "cases": "nope", "diagnostics": [None, 3, {"line": "x"}], "perf": []},
        {"verdict": "runtime_error", "cases": [{"passed": "maybe", "max_abs_err": "NaN"}], "compile_log": 42,
         "perf": {"cycles": "many", "timeline": [{"start": 5, "end": 1}, {"pipe": "V"}, "junk"]},
         "baseline": "fast", "speedup": "∞", "toolchain": ["cpu-sim"], "flags": "x", "cache": 1},
        {"verdict": "a_new_verdict", "diagnostics": [{"category": "x", "file": "/usr/include/x.h", "line": 10**9}]},
    ],
)
def test_result_page_survives_partial_or_odd_results(client, add, user, result):
    """Rows written by an older evaluator, or by hand: the page degrades, it does not fail."""
    submission = _submit(user)
    Evaluation.objects.filter(submission=submission).update(status="done", verdict=result.get("verdict", ""),
                                                            result=result)
    response = client.get(f"/submissions/{submission.pk}/")
    assert response.status_code == 200


def test_user_text_is_escaped_everywhere(client, add, user):
    evil = '<img src=x onerror=alert(1)>'
    result = {**COMPILE_ERROR, "compile_log": f"kernel.cpp:3:1: error: {evil}\n",
              "diagnostics": [{"category": evil, "message": evil, "file": "kernel.cpp", "line": 3}],
              "cases": [{"name": evil, "passed": False}], "reason": evil}
    submission = _submit(user, kernel=f"// {evil}\n" + EXPERT, result=result)
    for url in (f"/submissions/{submission.pk}/", f"/submissions/{submission.pk}/diff/",
                f"/submissions/{submission.pk}/status/"):
        html = client.get(url).content.decode()
        assert "<img src=x" not in html, url
        assert "&lt;img src=x onerror=alert(1)&gt;" in html, url


def test_no_inline_scripts_or_handlers_on_the_pages(client, add, user):
    submission = _submit(user, result=PASSED)
    client.force_login(user)
    for url in ("/", "/tasks/", "/tasks/add/", "/tasks/add/submit/", f"/submissions/{submission.pk}/",
                f"/submissions/{submission.pk}/diff/", f"/submissions/compare/?a={submission.pk}",
                "/submissions/mine/"):
        html = client.get(url).content.decode()
        scripts = re.findall(r"<script([^>]*)>", html)
        assert all("src=" in attrs or 'type="application/json"' in attrs for attrs in scripts), url
        assert not re.search(r"\son[a-z]+\s*=", html), url
        assert "javascript:" not in html, url


# --- privacy ------------------------------------------------------------------------------------------


def test_private_submission_is_404_for_others(client, add, user, bob):
    private = _submit(user, visibility="private", result=PASSED)
    urls = [f"/submissions/{private.pk}/", f"/submissions/{private.pk}/status/", f"/submissions/{private.pk}/diff/",
            f"/submissions/{private.pk}/compile.log", f"/submissions/compare/?a={private.pk}"]
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(bob)
    for url in urls:
        assert client.get(url).status_code == 404, url
    public = _submit(bob)
    assert client.get(f"/submissions/{public.pk}/diff/?against={private.pk}").status_code == 404
    # Starting the editor from someone else's private submission starts from the template instead.
    secret = _submit(user, kernel=EXPERT + "// secret sauce\n", visibility="private")
    editor = client.get(f"/tasks/add/submit/?from={secret.pk}").content.decode()
    assert "secret sauce" not in editor and "// TODO: copy x and y in tiles" in editor
    client.force_login(user)
    for url in urls:
        assert client.get(url).status_code == 200, url
    staff = get_user_model().objects.create_user("root", password="pw-root-123456", is_staff=True)
    client.force_login(staff)
    assert client.get(f"/submissions/{private.pk}/").status_code == 200


def test_mine_lists_only_my_submissions_and_needs_login(client, add, user, bob, django_assert_max_num_queries):
    mine = [_submit(user, kernel=EXPERT + f"// {i}\n", result=PASSED, visibility="private" if i % 2 else "public")
            for i in range(6)]
    _submit(bob, result=PASSED)
    response = client.get("/submissions/mine/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    client.force_login(user)
    with django_assert_max_num_queries(6):
        response = client.get("/submissions/mine/")
    assert [s.pk for s in response.context["page"].object_list] == [s.pk for s in reversed(mine)]
    assert "private" in response.content.decode()


def test_submissions_of_a_model_run_show_the_model(client, add, user):
    llm = LanguageModel.objects.create(owner=user, name="tiny-coder")
    run = Run.objects.create(model=llm, name="k4", samples_per_task=4)
    created = intake.submission_create(task_slug="add", path="device_only", kernel=EXPERT, run=run, sample_index=2)
    html = client.get(f"/submissions/{created.submission.pk}/").content.decode()
    assert "tiny-coder / k4 #2" in html


# --- diffs and compare -----------------------------------------------------------------------------


def test_diff_against_template_side_by_side_and_unified(client, add, user):
    submission = _submit(user, result=PASSED)
    split = client.get(f"/submissions/{submission.pk}/diff/")
    assert split.status_code == 200
    html = split.content.decode()
    assert 'class="diff diff-split hl"' in html
    files = split.context["files"]
    assert files[0].name == "kernel.cpp" and files[0].added > 40 and files[0].removed >= 1
    unified = client.get(f"/submissions/{submission.pk}/diff/?against=template&layout=unified").content.decode()
    assert 'class="diff diff-unified hl"' in unified
    assert "@@ -" in unified
    patch = client.get(f"/submissions/{submission.pk}/diff/?format=patch")
    assert patch["Content-Type"].startswith("text/plain")
    text = patch.content.decode()
    assert text.startswith("--- a/kernel.cpp\n+++ b/kernel.cpp\n")
    assert "-    // TODO: copy x and y in tiles, add them, copy z out." in text
    assert "+" + EXPERT.splitlines()[-3] in text


def test_expert_diff_is_locked_until_the_user_passes(client, add, user, bob):
    failing = _submit(user, kernel=WRONG, result=WRONG_ANSWER)
    url = f"/submissions/{failing.pk}/diff/?against=expert"
    assert client.get(url).status_code == 403  # anonymous
    client.force_login(user)
    locked = client.get(url)
    assert locked.status_code == 403 and "unlocks once one of your submissions" in locked.content.decode()
    assert 'data-testid="expert-locked"' in client.get(f"/submissions/{failing.pk}/").content.decode()
    _submit(user, result=PASSED)
    unlocked = client.get(url)
    assert unlocked.status_code == 200
    file = unlocked.context["files"][0]
    assert (file.added, file.removed) == (1, 1)  # Muls instead of Add
    # Bob has not passed: still locked for him, even on user's public submission.
    client.force_login(bob)
    assert client.get(url).status_code == 403
    staff = get_user_model().objects.create_user("root", password="pw-root-123456", is_staff=True)
    client.force_login(staff)
    assert client.get(url).status_code == 200


def test_diff_against_an_earlier_submission(client, add, user):
    first = _submit(user, kernel=WRONG, result=WRONG_ANSWER)
    second = _submit(user, result=PASSED)
    page = client.get(f"/submissions/{second.pk}/").content.decode()
    assert f'href="/submissions/{second.pk}/diff/?against={first.pk}" data-testid="diff-previous"' in page
    response = client.get(f"/submissions/{second.pk}/diff/?against={first.pk}")
    assert response.status_code == 200
    assert response.context["old_label"] == f"Submission #{first.pk}"
    assert (response.context["files"][0].added, response.context["files"][0].removed) == (1, 1)
    assert client.get(f"/submissions/{second.pk}/diff/?against=banana").status_code == 404


def test_compare_two_submissions_of_one_task(client, add, user, bob, django_assert_max_num_queries):
    a = _submit(user, kernel=WRONG, result=WRONG_ANSWER)
    b = _submit(bob, result=PASSED)
    with django_assert_max_num_queries(14):
        response = client.get(f"/submissions/compare/?a={a.pk}&b={b.pk}")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="side-a"' in html and 'data-testid="side-b"' in html
    assert 'data-verdict="wrong_answer"' in html and 'data-verdict="passed"' in html
    assert response.context["files"][0].added == 1
    picker = client.get(f"/submissions/compare/?a={a.pk}")
    assert picker.status_code == 200 and {s.pk for s in picker.context["candidates"]} == {a.pk, b.pk}


def test_compare_refuses_submissions_of_different_tasks(client, add, user):
    make_add_task("relu", title="ReLU")
    a = _submit(user)
    b = _submit(user, task_slug="relu")
    response = client.get(f"/submissions/compare/?a={a.pk}&b={b.pk}")
    assert response.status_code == 400
    assert "compare two submissions of the same task" in response.content.decode()


def test_compile_log_download(client, add, user):
    submission = _submit(user, kernel=BROKEN, result=COMPILE_ERROR)
    response = client.get(f"/submissions/{submission.pk}/compile.log")
    assert response["Content-Type"].startswith("text/plain")
    assert "was not declared in this scope" in response.content.decode()


def test_number_formats_of_the_pages():
    from submissions.templatetags.akgen_ui import cycles, sci, speedup

    assert [sci(x) for x in (1e-4, 3.12e-4, 0.001, 2.871, 0, 123456.0, None, "x")] == [
        "1e-4", "3.12e-4", "0.001", "2.871", "0", "1.23e5", "—", "—"]
    assert [speedup(x) for x in (1.0481, 0.5, 250.0, None, float("nan"))] == ["1.05×", "0.50×", "250×", "—", "—"]
    assert [cycles(x) for x in (70920, 3937.6, None)] == ["70,920", "3,938", "—"]
