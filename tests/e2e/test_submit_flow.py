"""Sign in, write a kernel in the browser, submit it and watch the verdict arrive without reloading.

Two tests:

* ``test_submit_and_watch_verdicts_arrive`` moves the evaluation rows through the very calls a
  worker makes (claim → stages → finish, with realistic result objects), so the page's live
  updates, result rendering, diffs and compare page are checked whatever state the evaluator is in.
* ``test_real_evaluator_judges_expert_and_broken_kernels`` runs the whole pipeline: the suite
  loaded by ``sync_tasks``, the view queueing through the configured broker, a real dramatiq
  worker in this process running ``bench_runner.evaluate``. It skips, saying why, until the
  evaluator and the sample ``add`` task exist.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
import warnings
from pathlib import Path

import dramatiq
import pytest
from django.contrib.auth import get_user_model
from dramatiq.brokers.rabbitmq import RabbitmqBroker
from playwright.sync_api import expect

from bench_runner.contracts import EvaluationResult
from submissions.models import Evaluation, Submission
from tests.platform.tasks.samples import BROKEN, COMPILE_ERROR, EXPERT, PASSED, make_add_task
from workers import pipeline

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "bench_runner" / "suites" / "npukb"
PASSWORD = "pw-ada-correct-horse"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Rate counters live in a shared Redis: keep this test's apart from everyone else's.
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"


@pytest.fixture
def eval_queue():
    """Send this test's evaluations to a queue of its own, so that a shared broker's workers
    (other test runs, other engineers) never see them and this test never sees theirs."""
    from workers.actors import evaluate_cpu_sim

    broker = dramatiq.get_broker()
    name = f"test.eval.{uuid.uuid4().hex[:10]}"
    if isinstance(broker, RabbitmqBroker):
        del broker.connection  # this thread's next use opens a fresh one (RabbitMQ may have restarted)
    broker.declare_queue(name)
    original = evaluate_cpu_sim.queue_name
    evaluate_cpu_sim.queue_name = name
    try:
        yield broker, name
    finally:
        evaluate_cpu_sim.queue_name = original
        if isinstance(broker, RabbitmqBroker):
            try:
                del broker.connection  # a stopped Worker closes the broker's connections
                for queue in (name, f"{name}.DQ", f"{name}.XQ"):
                    broker.channel.queue_delete(queue)
            except Exception as exc:  # noqa: BLE001 (cleanup is best effort; the queue is unique)
                warnings.warn(f"could not delete test queue {name}: {exc}", stacklevel=1)


def _log_in(page, base_url: str, next_path: str) -> None:
    get_user_model().objects.create_user("ada", password=PASSWORD)
    page.goto(f"{base_url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"**{next_path}")


def _write_and_submit(page, kernel: str) -> int:
    """Put ``kernel`` in the CodeMirror editor, type a line by hand, submit; returns the new id."""
    expect(page.locator(".cm-editor[data-editor-for=id_kernel]")).to_be_visible()
    page.evaluate(
        "text => window.akgenEditor.setDoc(document.getElementById('id_kernel'), text)", kernel)
    page.locator(".cm-editor[data-editor-for=id_kernel] .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n// typed in the browser")
    page.click("[data-testid=submit-kernel]")
    page.wait_for_url("**/submissions/*/")
    submission = Submission.objects.order_by("-pk").first()
    assert submission.kernel_source.endswith("// typed in the browser")
    assert submission.kernel_source.startswith(kernel.rstrip("\n"))
    return submission.pk


def _step(page, key: str):
    return page.locator(f"#evaluation [data-step={key}][aria-current=step]")


def _act_as_worker(page, submission_pk: int, result: dict, shot=None) -> None:
    """Claim, report stages and finish like a worker, checking the page follows each step live."""
    evaluation = Evaluation.objects.get(submission_id=submission_pk)
    expect(_step(page, "queued")).to_be_visible()
    claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="e2e-worker/thread-1")
    pipeline.evaluation_set_stage(claim, "compile")
    expect(_step(page, "compiling")).to_be_visible(timeout=5000)
    expect(page.locator("[data-testid=stage]")).to_have_text("Compiling…")
    pipeline.evaluation_set_stage(claim, "run")
    expect(_step(page, "running")).to_be_visible(timeout=5000)
    if shot is not None:
        shot(page, "submission-live")
    assert pipeline.evaluation_finish(claim, EvaluationResult.from_dict(result))


@pytest.mark.django_db(transaction=True)
def test_submit_and_watch_verdicts_arrive(live_server, page, screenshot, eval_queue):
    make_add_task()
    base = live_server.url
    _log_in(page, base, "/tasks/add/submit/")
    assert page.locator("#id_kernel").input_value().startswith('#include "kernel_operator.h"')
    expect(page.locator("[data-testid=host-block]")).to_be_hidden()
    page.click("label.seg:has(input[value=host_device])")
    expect(page.locator("[data-testid=host-block]")).to_be_visible()
    page.click("label.seg:has(input[value=device_only])")
    screenshot(page, "editor")

    # 1. A passing kernel: the page walks queued → compiling → running → verdict by itself.
    passing = _write_and_submit(page, EXPERT)
    page.evaluate("window.__sameDocument = true")
    _act_as_worker(page, passing, PASSED, shot=screenshot)
    verdict = page.locator("#evaluation[data-verdict]")
    expect(verdict).to_have_attribute("data-verdict", "passed", timeout=5000)
    expect(page.locator("[data-testid=speedup]")).to_have_text("1.05×")
    assert page.evaluate("window.__sameDocument") is True  # no reload
    assert page.locator("#evaluation").get_attribute("hx-trigger") is None  # polling stopped
    expect(page.locator("[data-testid=timeline] canvas")).to_be_visible()
    expect(page.locator("[data-testid=timeline-core]")).to_have_value("7")  # the slowest core
    assert page.locator("[data-testid=cases] tbody tr.row-ok").count() == 3
    screenshot(page, "submission-passed")

    # 2. A failing kernel, started from the first with "Edit and resubmit".
    page.click("[data-testid=resubmit]")
    page.wait_for_url(f"**/tasks/add/submit/?from={passing}")
    broken = _write_and_submit(page, BROKEN)
    page.evaluate("window.__sameDocument = true")
    _act_as_worker(page, broken, COMPILE_ERROR)
    expect(page.locator("#evaluation")).to_have_attribute("data-verdict", "compile_error", timeout=5000)
    assert page.evaluate("window.__sameDocument") is True
    # The error line of the log links to the source line, which the out-of-band swap marked.
    link = page.locator("[data-testid=log-lines] .log-error a").first
    anchor = link.get_attribute("data-line-link")
    expect(page.locator(f"#{anchor}")).to_have_class("mark-error")
    link.click()
    assert page.url.endswith(f"#{anchor}")
    expect(page.locator(f"#{anchor}")).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "submission-compile-error")

    # 3. The diff against the previous submission, both layouts.
    page.click("[data-testid=diff-previous]")
    page.wait_for_url(f"**/submissions/{broken}/diff/?against={passing}")
    expect(page.locator(".diff-split td.src-del")).to_have_count(1)
    expect(page.locator(".diff-split td.src-add")).to_have_count(1)
    assert "yLokal" in page.locator(".diff-split td.src-add").inner_text()
    page.click("[data-testid=layout-unified]")
    expect(page.locator(".diff-unified tr.row-add")).to_have_count(1)
    screenshot(page, "diff")

    # 4. Ada passed, so the expert kernel is unlocked for her; then the compare page.
    page.goto(f"{base}/submissions/{broken}/")
    page.click("[data-testid=diff-expert]")
    expect(page.locator("[data-testid=diff-file]")).to_have_count(1)
    page.goto(f"{base}/submissions/compare/?a={passing}&b={broken}")
    expect(page.locator("[data-testid=side-a] [data-verdict=passed]")).to_be_visible()
    expect(page.locator("[data-testid=side-b] [data-verdict=compile_error]")).to_be_visible()
    screenshot(page, "compare")
    page.goto(f"{base}/submissions/mine/")
    expect(page.locator("[data-testid=submission-table] tr[data-submission]")).to_have_count(2)
    screenshot(page, "mine")
    assert page.console_errors == []


def _sample_add_task() -> Path | None:
    """The suite's add task: ``add`` itself, or the first ``add_*`` with an expert kernel."""
    candidates = [SUITE / "add"] + sorted(SUITE.glob("add_*")) if SUITE.is_dir() else []
    return next((c for c in candidates if (c / "expert" / "kernel.cpp").is_file()), None)


def _real_evaluator_missing() -> str | None:
    try:
        from bench_runner.evaluate import evaluate  # noqa: F401
    except Exception as exc:  # noqa: BLE001 (any import failure means "not ready")
        return f"bench_runner.evaluate.evaluate is not importable yet ({type(exc).__name__}: {exc})"
    if _sample_add_task() is None:
        return f"no add task with expert/kernel.cpp under {SUITE.relative_to(ROOT)}/ yet"
    return None


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_real_evaluator_judges_expert_and_broken_kernels(live_server, page, screenshot, eval_queue, tmp_path):
    missing = _real_evaluator_missing()
    if missing:
        pytest.skip(f"real evaluation needs the evaluator and the npukb suite: {missing}")
    from dramatiq import Worker

    from tasks.services import task_sync_from_suite

    sample = _sample_add_task()
    slug = sample.name
    # sync_tasks on a suite holding just the sample task, so that a problem in an unrelated task
    # of the suite cannot break this test of the pages (the evaluator reads the real suite).
    shutil.copytree(sample, tmp_path / "suite" / slug)
    report = task_sync_from_suite(root=tmp_path / "suite")
    assert report.created[0] == slug and not report.errors, report  # (+ its derived static variant)
    broker, queue = eval_queue
    worker = Worker(broker, queues={queue}, worker_threads=1, worker_timeout=100)
    worker.start()
    try:
        base = live_server.url
        _log_in(page, base, f"/tasks/{slug}/submit/")
        expert = (sample / "expert" / "kernel.cpp").read_text(encoding="utf-8")
        timeout_ms = int(os.environ.get("AKGEN_E2E_EVAL_TIMEOUT_S", "180")) * 1000

        passing = _write_and_submit(page, expert)
        expect(page.locator("#evaluation")).to_have_attribute("data-status", "done", timeout=timeout_ms)
        evaluation = Evaluation.objects.get(submission_id=passing)
        assert evaluation.verdict == "passed", (evaluation.verdict, (evaluation.result or {}).get("reason"))
        expect(page.locator("#evaluation")).to_have_attribute("data-verdict", "passed")
        screenshot(page, "real-submission-passed")

        page.click("[data-testid=resubmit]")
        page.wait_for_url(f"**/tasks/{slug}/submit/?from={passing}")
        broken = _write_and_submit(page, expert + "\nthis is not C++;\n")
        started = time.monotonic()
        expect(page.locator("#evaluation")).to_have_attribute("data-status", "done", timeout=timeout_ms)
        verdict = Evaluation.objects.get(submission_id=broken).verdict
        assert verdict == "compile_error", verdict
        expect(page.locator("#evaluation")).to_have_attribute("data-verdict", "compile_error")
        assert page.locator("[data-testid=log-lines] .log-error").count() >= 1
        screenshot(page, "real-submission-compile-error")
        page.click("[data-testid=diff-previous]")
        expect(page.locator(".diff-split td.src-add").first).to_be_visible()
        assert time.monotonic() - started < timeout_ms / 1000
    finally:
        worker.stop(timeout=10_000)
