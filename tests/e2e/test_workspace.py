"""The expert workspace in headless Chromium, with a real dramatiq worker judging the fix.

An annotator explains the expert kernel of ``add_fp16_static`` in two sections linked to line
ranges, fixes a kernel that fails to compile (the fix is judged by the worker and passes) and
submits both; a reviewer requests a change on the explanation and approves the fix; the
annotator revises; the reviewer approves. Screenshots of the queue, both editors, the review
page and the dashboard go to var/screenshots/workspace-*.png.
"""

from __future__ import annotations

import os
import re
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

from annotations import selectors, services
from annotations.models import Annotation, QueueKind, Status
from annotations.roles import role_grant
from submissions.models import Evaluation

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bench_runner" / "suites" / "npukb" / "add_fp16_static"
GUIDELINES = """\
**Explain the kernel the way you would teach it to a colleague.**

- One section per concern; leave a section empty when the kernel has nothing to say about it.
- Link every section to the lines it is about (click a line number, shift-click another).
- Say *why*, not only *what*: the numbers (tile sizes, buffer counts) and where they come from.
"""
BREAK = ("Add(zLocal, xLocal, yLocal, TILE_LENGTH);", "Add(zLocal, xLocal, yLocal);")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"


@pytest.fixture
def eval_queue():
    """This test's evaluations go to a queue of its own (as in test_submit_flow)."""
    from workers.actors import evaluate_cpu_sim

    broker = dramatiq.get_broker()
    name = f"test.eval.{uuid.uuid4().hex[:10]}"
    if isinstance(broker, RabbitmqBroker):
        del broker.connection
    broker.declare_queue(name)
    original = evaluate_cpu_sim.queue_name
    evaluate_cpu_sim.queue_name = name
    try:
        yield broker, name
    finally:
        evaluate_cpu_sim.queue_name = original
        if isinstance(broker, RabbitmqBroker):
            try:
                del broker.connection
                for queue in (name, f"{name}.DQ", f"{name}.XQ"):
                    broker.channel.queue_delete(queue)
            except Exception as exc:  # noqa: BLE001 (cleanup is best effort; the queue is unique)
                warnings.warn(f"could not delete test queue {name}: {exc}", stacklevel=1)


def _person(name: str, role: str):
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-horse")
    role_grant(user, role)
    return user


def _log_in(page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/?next=/workspace/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", f"pw-{name}-horse")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/workspace/")


def _wait_judged(submission_pk: int, timeout_s: float) -> Evaluation:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        evaluation = Evaluation.objects.get(submission_id=submission_pk)
        if evaluation.status in ("done", "failed"):
            return evaluation
        time.sleep(0.2)
    raise AssertionError(f"submission {submission_pk} was not judged within {timeout_s} s")


def _line(source: str, text: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), start=1) if text in line)


def _link(page, section: str, start: int, end: int, text: str) -> None:
    """Select lines start..end in the listing, link them to the section, write its text."""
    page.click(f"#k-L{start} td.ln a")
    page.click(f"#k-L{end} td.ln a", modifiers=["Shift"])
    page.click(f"[data-testid=link-{section}]")
    box = page.locator(f"#s-{section}-text")
    box.fill(text)
    expect(page.locator(f"[data-testid=section-{section}] [data-lines-input]")).to_have_value(
        re.compile(rf"(^|, ){start}(-{end})?(,|$)"))


def _wait_saved(page) -> None:
    expect(page.locator("[data-testid=save-state]")).to_have_attribute("data-state", "saved", timeout=10_000)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_annotate_fix_review_walkthrough(live_server, browser, page, screenshot, eval_queue, tmp_path):
    if not (SAMPLE / "expert" / "kernel.cpp").is_file():
        pytest.skip(f"the sample task {SAMPLE.name} is not in the suite")
    from dramatiq import Worker

    from submissions.intake import submission_create
    from tasks.services import task_sync_from_suite

    shutil.copytree(SAMPLE, tmp_path / "suite" / SAMPLE.name)
    report = task_sync_from_suite(root=tmp_path / "suite")
    assert report.created == [SAMPLE.name] and not report.errors, report
    expert = (SAMPLE / "expert" / "kernel.cpp").read_text(encoding="utf-8")
    ann = _person("ann", "annotator")
    rev = _person("rev", "reviewer")
    modeller = get_user_model().objects.create_user("modeller")
    explain_q = services.queue_create(by=None, slug="explain-expert", name="Explain expert kernels",
                                      kind=QueueKind.EXPLAIN, guidelines=GUIDELINES, overlap_target=2,
                                      description="Chain-of-thought for every expert kernel")
    fix_q = services.queue_create(by=None, slug="fix-failures", name="Fix failed kernels", kind=QueueKind.FIX,
                                  guidelines="Diagnose the **root cause**, then fix the kernel until it passes.",
                                  description="New failure categories first")
    services.queue_create(by=None, slug="docqa", name="AscendC questions", kind=QueueKind.DOCQA,
                          description="The programming model, answered with reasons")
    timeout_s = float(os.environ.get("AKGEN_E2E_EVAL_TIMEOUT_S", "180"))
    broker, queue = eval_queue
    worker = Worker(broker, queues={queue}, worker_threads=1, worker_timeout=100)
    worker.start()
    reviewer_context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        # A model's kernel with a one-line break fails to compile; the rules queue both items.
        failing = submission_create(task_slug=SAMPLE.name, path="device_only", kernel=expert.replace(*BREAK),
                                    author=modeller).submission
        assert _wait_judged(failing.pk, timeout_s).verdict == "compile_error"
        [fix_item] = services.queue_fill(fix_q, "new_failure_categories", by=None)
        [explain_item] = services.queue_fill(explain_q, "expert_kernels", by=None)

        base = live_server.url
        page.set_viewport_size({"width": 1440, "height": 900})
        _log_in(page, base, "ann")
        expect(page.locator("[data-queue=explain-expert]")).to_be_visible()
        page.click("[data-queue=explain-expert]")
        expect(page.locator("[data-testid=guidelines]")).to_contain_text("Link every section")
        screenshot(page, "workspace-queue")

        # 1. Explain: two sections, each linked to a line range.
        page.click(f"[data-testid=claim-{explain_item.pk}]")
        page.wait_for_url("**/workspace/a/*/")
        first, last = _line(expert, "TOTAL_LENGTH = "), _line(expert, "TILE_LENGTH = ")
        _link(page, "partitioning", first, last,
              "16384 halves split evenly over 8 cores (BLOCK_LENGTH = 2048 each); each core's block is cut "
              "into TILE_NUM × BUFFER_NUM = 8 tiles of 256 halves (512 B, 32-byte aligned).")
        loop_from, loop_to = _line(expert, "void Process()"), _line(expert, "CopyOut(i);") + 1
        _link(page, "pipeline", loop_from, loop_to,
              "Three stages per tile: CopyIn (MTE2) → Compute (V) → CopyOut (MTE3), handed over through "
              "TQue with depth BUFFER_NUM = 2, so the copy of tile i+1 overlaps the add of tile i.")
        _wait_saved(page)
        page.locator("[data-testid=section-pipeline]").hover()
        expect(page.locator(f"#k-L{loop_from}")).to_have_class(re.compile(r"\bws-linked\b"))
        screenshot(page, "workspace-explain")
        page.click("[data-testid=submit-review]")
        page.wait_for_url("**/workspace/")
        explanation = Annotation.objects.get(item=explain_item, annotator=ann)
        assert explanation.status == Status.SUBMITTED
        assert [(s["kind"], s["lines"]) for s in explanation.sections] == [
            ("partitioning", [[first, last]]), ("pipeline", [[loop_from, loop_to]])]

        # 2. Fix: diagnose, correct the category, edit the kernel, re-evaluate on the worker.
        page.goto(f"{base}/workspace/q/fix-failures/")
        page.click(f"[data-testid=claim-{fix_item.pk}]")
        page.wait_for_url("**/workspace/a/*/")
        expect(page.locator("[data-testid=failing-log]")).to_contain_text("error")
        # The classifier's category is the starting point; the annotator keeps it when it is right.
        expect(page.locator("#id_category")).to_have_value(fix_item.category)
        assert fix_item.category == "api_mismatch"
        page.fill("#id_diagnosis", "`Add` is called without its element count: the vector API needs "
                                   "`Add(dst, src0, src1, count)`, so no overload matches.")
        page.fill("#s-fix-text", "Pass TILE_LENGTH, the elements of one tile, as the count.")
        expect(page.locator("[data-testid=submit-review]")).to_be_disabled()
        page.evaluate("text => window.akgenEditor.setDoc(document.getElementById('id_fixed_kernel'), text)",
                      expert.replace(BREAK[0], "Add(zLocal, xLocal, yLocal, TILE_LENGTH)  ;"))
        page.click("[data-testid=re-evaluate]")
        expect(page.locator("#fix-status")).to_have_attribute("data-verdict", "passed", timeout=timeout_s * 1000)
        expect(page.locator("[data-testid=submit-review]")).to_be_enabled()
        _wait_saved(page)
        screenshot(page, "workspace-fix")
        page.click("[data-testid=submit-review]")
        page.wait_for_url("**/workspace/")
        expect(page.locator("[data-testid=my-work] tr[data-annotation]")).to_have_count(2)
        screenshot(page, "workspace-home")
        fix = Annotation.objects.get(item=fix_item, annotator=ann)
        assert fix.status == Status.SUBMITTED and fix.category == "api_mismatch" and not fix.classifier_corrected
        assert fix.fix_submission.author == ann and fix.fix_submission.visibility == "private"
        assert Evaluation.objects.get(submission=fix.fix_submission).verdict == "passed"

        # 3. The reviewer asks for a change on one section of the explanation, approves the fix.
        rpage = reviewer_context.new_page()
        reviewer_errors: list[str] = []
        rpage.on("pageerror", lambda exc: reviewer_errors.append(str(exc)))
        _log_in(rpage, base, "rev")
        rpage.click("[data-testid=nav-review]")
        rpage.click(f"[data-testid=review-{explain_item.pk}]")
        rpage.locator("[data-testid=card-A-pipeline] summary").click()
        rpage.fill("[data-testid=comment-A-pipeline]", "Say which pipe each stage runs on and why depth 2 is enough.")
        rpage.click("[data-testid=request-changes-A]")
        rpage.wait_for_url("**/workspace/review/")
        rpage.click(f"[data-testid=review-{fix_item.pk}]")
        expect(rpage.locator("[data-testid=card-category]")).to_have_text("api_mismatch")
        expect(rpage.locator("[data-testid=card-A] .diff-file")).to_contain_text("TILE_LENGTH")
        screenshot(rpage, "workspace-review-fix")
        rpage.click("[data-testid=approve-A]")
        rpage.wait_for_url("**/workspace/review/")

        # 4. The annotator sees the comment beside the section and revises.
        page.goto(f"{base}/workspace/a/{explanation.pk}/")
        expect(page.locator("[data-testid=comment-pipeline]")).to_contain_text("which pipe")
        screenshot(page, "workspace-explain-changes")
        page.fill("#s-pipeline-text", explanation.sections[1]["text"] + " MTE2 brings tile i+1 in while V adds "
                  "tile i and MTE3 writes tile i−1 out; two buffers are enough because the three pipes "
                  "take about as long each.")
        _wait_saved(page)
        page.click("[data-testid=submit-review]")
        page.wait_for_url("**/workspace/")

        # 5. The reviewer approves the revision.
        rpage.goto(f"{base}/workspace/review/items/{explain_item.pk}/")
        expect(rpage.locator("[data-testid=card-A-pipeline]")).to_contain_text("MTE2 brings tile")
        rpage.locator("[data-testid=card-A-partitioning]").hover()
        screenshot(rpage, "workspace-review")
        rpage.click("[data-testid=approve-A]")
        rpage.wait_for_url("**/workspace/review/")
        rpage.click("[data-testid=nav-dashboard]")
        expect(rpage.locator("[data-testid=queue-progress]")).to_contain_text("Explain expert kernels")
        screenshot(rpage, "workspace-dashboard")

        records = {r.kind: r for r in selectors.approved_annotations()}
        assert {r.reviewer for r in records.values()} == {rev.username}
        assert set(records) == {"explain", "fix"}
        assert "MTE2 brings tile" in records["explain"].sections[1]["text"]
        assert records["fix"].failing_verdict == "compile_error" and records["fix"].fix_kind == "api"
        assert records["fix"].fixed_kernel != records["fix"].kernel
        assert page.console_errors == [] and reviewer_errors == []
    finally:
        reviewer_context.close()
        worker.stop(timeout=10_000)


@pytest.mark.django_db(transaction=True)
def test_two_explanations_side_by_side_then_merged(live_server, browser, screenshot):
    """Two annotators explained one kernel; the reviewer sees both side by side and merges
    them section by section. Rows are made through the services (no worker needed)."""
    from tests.platform.factories import make_task

    expert = (SAMPLE / "expert" / "kernel.cpp").read_text(encoding="utf-8") if SAMPLE.is_dir() else "// k\n" * 40
    queue = services.queue_create(by=None, slug="explain", name="Explain expert kernels", kind=QueueKind.EXPLAIN,
                                  guidelines=GUIDELINES, overlap_target=2)
    for slug in ("add", "mul", "relu", "softmax", "layernorm", "matmul"):
        task = make_task(slug)
        task.current_version.expert_kernel = expert
        task.current_version.save()
    items = services.fill_expert_kernels(queue)
    ann, bob = _person("ann", "annotator"), _person("bob", "annotator")
    _person("rev", "reviewer")
    texts = {
        ann: [("partitioning", "Eight cores, 2048 halves each.", [6, 11]),
              ("pipeline", "CopyIn, Compute, CopyOut per tile.", [24, 30])],
        bob: [("partitioning", "BLOCK_LENGTH = 16384 / 8: one contiguous block per core, no tail because "
                               "16384 divides evenly.", [6, 8]),
              ("pipeline", "Depth-2 queues: MTE2 loads tile i+1 while V adds tile i.", [24, 30]),
              ("perf", "MTE2-bound: two loads per store; the add is short.", None)],
    }
    for person, sections in texts.items():
        annotation = services.item_claim(person, items[0])
        services.annotation_save(person, annotation, spent_s=240,
                                 sections=[{"kind": k, "text": t, "lines": lines} for k, t, lines in sections])
        services.annotation_submit(person, annotation)
    services.item_claim(ann, items[1])
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        _log_in(page, live_server.url, "rev")
        page.goto(f"{live_server.url}/workspace/q/explain/")
        expect(page.locator("[data-testid=queue-items] tr[data-item]")).to_have_count(6)
        screenshot(page, "workspace-queue-full")
        page.goto(f"{live_server.url}/workspace/review/items/{items[0].pk}/")
        expect(page.locator("[data-testid=review-cards] .ws-card")).to_have_count(2)
        page.locator("[data-testid=card-B-partitioning]").hover()
        screenshot(page, "workspace-review-side-by-side")
        bobs = Annotation.objects.get(item=items[0], annotator=bob)
        page.check(f"[data-testid=merge] input[name=pick-partitioning][value='{bobs.pk}']")
        page.check(f"[data-testid=merge] input[name=pick-perf][value='{bobs.pk}']")
        page.click("[data-testid=merge-approve]")
        page.wait_for_url("**/workspace/review/")
        merged = Annotation.objects.get(item=items[0], annotator=ann)
        assert merged.status == Status.APPROVED and merged.merged_from == {"partitioning": bobs.pk, "perf": bobs.pk}
        assert [s["kind"] for s in merged.sections] == ["partitioning", "pipeline", "perf"]
        bobs.refresh_from_db()
        assert bobs.status == Status.SUPERSEDED
    finally:
        context.close()
