"""Workspace services: queues filled by rules, assignment with overlap, drafts, fixes that must
pass before review, the review cycle, merge, agreement and the export selector."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from annotations import selectors, services
from annotations.errors import FixNotPassing, InvalidContent, QueueFull
from annotations.models import Annotation, QueueKind, Status
from annotations.presenters import section_views
from tests.platform.annotations.conftest import (
    COMPILE_RESULT,
    EXPERT,
    PASSED_RESULT,
    WRONG_RESULT,
    judge,
    make_user,
    submit,
)

pytestmark = pytest.mark.django_db


def _sections(*entries):
    return [{"kind": kind, "text": text, "lines": lines} for kind, text, lines in entries]


def test_rules_fill_queues_once_per_category_and_task(people, add_task, fix_queue, explain_queue):
    submit(add_task, EXPERT + "// 1\n", COMPILE_RESULT)
    submit(add_task, EXPERT + "// 2\n", COMPILE_RESULT)
    latest_wrong = submit(add_task, EXPERT + "// 3\n", WRONG_RESULT)
    submit(add_task, EXPERT + "// 4\n", None)  # not judged yet: never queued
    added = services.queue_fill(fix_queue, "new_failure_categories", by=people["admin"])
    assert sorted(i.category for i in added) == ["numerical_mismatch", "undeclared"]
    assert {i.verdict for i in added} == {"compile_error", "wrong_answer"}
    assert latest_wrong.pk in {i.submission_id for i in added}
    assert services.queue_fill(fix_queue, "new_failure_categories", by=people["admin"]) == []  # idempotent
    # The most common failure of the task (undeclared) is already covered.
    assert services.queue_fill(fix_queue, "most_common_failure", by=people["admin"]) == []
    experts = services.queue_fill(explain_queue, "expert_kernels", by=people["admin"])
    assert [i.source for i in experts] == ["expert"] and experts[0].kernel == EXPERT
    with pytest.raises(InvalidContent, match="fills fix queues"):
        services.queue_fill(explain_queue, "new_failure_categories", by=people["admin"])


def test_assignment_meets_the_overlap_target_least_loaded_first(people, add_task, explain_queue):
    services.fill_expert_kernels(explain_queue)
    from tests.platform.factories import make_task

    second = make_task("mul")
    second.current_version.expert_kernel = EXPERT
    second.current_version.save()
    services.fill_expert_kernels(explain_queue)
    carl = make_user("carl", "annotator")
    created = services.assign(explain_queue, [people["ann"], people["bob"], carl], by=people["admin"])
    assert len(created) == 4  # 2 items x overlap 2
    per_item = {}
    for a in created:
        per_item.setdefault(a.item_id, set()).add(a.annotator.username)
    assert all(len(names) == 2 for names in per_item.values())
    assert services.assign(explain_queue, [people["ann"], people["bob"], carl], by=people["admin"]) == []
    with pytest.raises(InvalidContent, match="annotator role"):
        services.assign(explain_queue, [people["nobody"]], by=people["admin"])


def test_claim_stops_at_the_overlap_target(people, add_task, explain_queue):
    item = services.fill_expert_kernels(explain_queue)[0]
    first = services.item_claim(people["ann"], item)
    assert services.item_claim(people["ann"], item).pk == first.pk  # reopening is not a second claim
    services.item_claim(people["bob"], item)
    third = make_user("carl", "annotator")
    with pytest.raises(QueueFull, match="pick another item"):
        services.item_claim(third, item)


def test_a_section_links_several_line_ranges(people, add_task, explain_queue):
    item = services.fill_expert_kernels(explain_queue)[0]
    a = services.item_claim(people["ann"], item)
    services.annotation_save(people["ann"], a, sections=_sections(("pipeline", "Queues here and there.", "9-10, 2,6–7, 2")))
    a.refresh_from_db()
    assert a.sections == [{"kind": "pipeline", "text": "Queues here and there.", "lines": [[2, 2], [6, 7], [9, 10]]}]
    view = next(v for v in section_views(a) if v.kind.key == "pipeline")
    assert (view.lines_label, view.lines_text, view.lines_data) == ("L2, L6–7, L9–10", "2, 6-7, 9-10", "2-2,6-7,9-10")
    # A pair as older clients (and the two-number form) sent it is still one range.
    services.annotation_save(people["ann"], a, sections=_sections(("pipeline", "One.", [3, 4])))
    a.refresh_from_db()
    assert a.sections[0]["lines"] == [[3, 4]]
    for bad, message in (("2-x", "two numbers"), ("1-" + str(10**6), "outside the kernel"),
                         (", ".join(f"{a}-{b}" for a in range(1, 8) for b in range(a, a + 4)), "limit is 20")):
        with pytest.raises(InvalidContent, match=message):
            services.annotation_save(people["ann"], a, sections=_sections(("pipeline", "x", bad)))


def test_autosave_validates_line_ranges_and_counts_time(people, add_task, explain_queue):
    item = services.fill_expert_kernels(explain_queue)[0]
    a = services.item_claim(people["ann"], item)
    services.annotation_save(people["ann"], a, sections=_sections(
        ("pipeline", "Double-buffered queues.", ["6", "7"]), ("partitioning", "", [None, None]),
        ("perf", "MTE2-bound.", [9, 9])), spent_s=42)
    a.refresh_from_db()
    assert a.sections == [{"kind": "pipeline", "text": "Double-buffered queues.", "lines": [[6, 7]]},
                          {"kind": "perf", "text": "MTE2-bound.", "lines": [[9, 9]]}]
    assert a.time_spent_s == 42
    services.annotation_save(people["ann"], a, spent_s=10_000)  # a tab left open: capped
    a.refresh_from_db()
    assert a.time_spent_s == 42 + services.MAX_SPENT_PER_SAVE_S
    with pytest.raises(InvalidContent, match="outside the kernel"):
        services.annotation_save(people["ann"], a, sections=_sections(("sync", "x", [3, 99])))
    with pytest.raises(InvalidContent, match="Unknown section"):
        services.annotation_save(people["ann"], a, sections=_sections(("gossip", "x", None)))


def test_fix_goes_to_review_only_once_it_passes(people, add_task, fix_queue, no_broker,
                                                django_capture_on_commit_callbacks):
    failing = submit(add_task, EXPERT.replace("SetGlobalBuffer", "SetGlobalBufer"), COMPILE_RESULT)
    item = services.item_add_submission(fix_queue, failing)
    a = services.item_claim(people["ann"], item)
    services.annotation_save(people["ann"], a, diagnosis="Typo in the API name: SetGlobalBufer.",
                             category="undeclared")
    with pytest.raises(FixNotPassing, match="Re-evaluate"):
        services.annotation_submit(people["ann"], a)
    with django_capture_on_commit_callbacks(execute=True):
        run = services.fix_evaluate(people["ann"], a, failing.kernel_source + "// still broken\n")
    assert run.submission.author == people["ann"] and run.submission.visibility == "private"
    assert no_broker.called  # queued through the normal pipeline
    with pytest.raises(FixNotPassing, match="still being judged"):
        services.annotation_submit(people["ann"], a)
    judge(run.submission, COMPILE_RESULT)
    with pytest.raises(FixNotPassing, match="compile error"):
        services.annotation_submit(people["ann"], a)
    run = services.fix_evaluate(people["ann"], a, EXPERT)
    judge(run.submission, PASSED_RESULT)
    services.annotation_save(people["ann"], a, fixed_kernel=EXPERT + "// later edit\n")
    with pytest.raises(FixNotPassing, match="changed since"):
        services.annotation_submit(people["ann"], a)
    services.annotation_save(people["ann"], a, fixed_kernel=EXPERT)
    services.annotation_submit(people["ann"], a)
    a.refresh_from_db()
    assert a.status == Status.SUBMITTED and a.revision == 1 and a.fix_submission_id == run.submission.pk


def test_review_cycle_and_export_record(people, add_task, fix_queue):
    failing = submit(add_task, EXPERT.replace("SetGlobalBuffer", "SetGlobalBufer"), COMPILE_RESULT)
    item = services.item_add_submission(fix_queue, failing)
    a = services.item_claim(people["ann"], item)
    services.annotation_save(people["ann"], a, diagnosis="Misspelt API.", category="api_mismatch",
                             sections=_sections(("fix", "Renamed the call.", None)))
    judge(services.fix_evaluate(people["ann"], a, EXPERT).submission, PASSED_RESULT)
    services.annotation_submit(people["ann"], a)
    services.review_request_changes(people["rev"], a, comments=[("fix", "Say which header declares it."), ("", "")])
    a.refresh_from_db()
    assert a.status == Status.CHANGES_REQUESTED
    assert [(c.section, c.revision) for c in a.comments.all()] == [("fix", 1)]
    services.annotation_save(people["ann"], a, sections=_sections(("fix", "Renamed the call; see kernel_operator.h.",
                                                                   None)), category="undeclared")
    services.annotation_submit(people["ann"], a)
    services.review_approve(people["rev"], a)
    [record] = selectors.approved_annotations(kind=QueueKind.FIX)
    assert record.kind == "fix" and record.fix_kind == "api"
    assert record.kernel == failing.kernel_source and record.fixed_kernel == EXPERT
    assert record.failing_verdict == "compile_error" and "SetGlobalBufer" in record.failing_log
    assert record.category == "undeclared" and record.classifier_category == "undeclared"
    assert record.reviewer == "rev" and record.annotator == "ann" and record.task_slug == "add"
    assert selectors.approved_annotations(kind=QueueKind.EXPLAIN) == []


def test_two_explanations_merged_and_agreement(people, add_task, explain_queue, fix_queue):
    item = services.fill_expert_kernels(explain_queue)[0]
    a = services.item_claim(people["ann"], item)
    b = services.item_claim(people["bob"], item)
    services.annotation_save(people["ann"], a, sections=_sections(("partitioning", "Eight cores.", [3, 3]),
                                                                  ("perf", "Weak.", None)))
    services.annotation_save(people["bob"], b, sections=_sections(("perf", "Copy-bound; double buffering hides it.",
                                                                   [6, 7])))
    services.annotation_submit(people["ann"], a)
    services.annotation_submit(people["bob"], b)
    services.review_merge(people["rev"], a, picks={"partitioning": a.pk, "perf": b.pk})
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.status == Status.APPROVED and b.status == Status.SUPERSEDED
    assert [s["text"] for s in a.sections] == ["Eight cores.", "Copy-bound; double buffering hides it."]
    assert a.merged_from == {"perf": b.pk}
    assert [r.annotation_id for r in selectors.approved_annotations()] == [a.pk]

    # Category agreement on fix items: two annotators per item.
    fix_queue.overlap_target = 2
    fix_queue.save()
    labels = [("undeclared", "undeclared"), ("api_mismatch", "undeclared"), ("alignment", "alignment")]
    for n, (first, second) in enumerate(labels):
        failing = submit(add_task, EXPERT + f"// {n}\n", COMPILE_RESULT)
        fix_item = services.item_add_submission(fix_queue, failing)
        for person, label in ((people["ann"], first), (people["bob"], second)):
            Annotation.objects.create(item=fix_item, annotator=person, category=label, status=Status.SUBMITTED)
    agreement = selectors.category_agreement()
    assert agreement.pairs == 3 and agreement.agreed == 2
    assert agreement.kappa == pytest.approx(selectors.cohen_kappa(labels))
    assert agreement.corrected == 3  # api_mismatch and alignment (x2) differ from the classifier's undeclared
    board = selectors.dashboard(people["rev"])
    assert board.backlog_review == 6 and board.agreement.pairs == 3


def test_cohen_kappa():
    assert selectors.cohen_kappa([]) is None
    assert selectors.cohen_kappa([("a", "a"), ("b", "b")]) == 1.0
    assert selectors.cohen_kappa([("a", "b"), ("b", "a")]) == pytest.approx(-1.0)
    # Two raters, 50 items: the textbook example (kappa = 0.4).
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    assert selectors.cohen_kappa(pairs) == pytest.approx(0.4)


def test_docqa_import_and_grant_role_command(people):
    queue = services.queue_create(by=people["admin"], slug="qa", name="AscendC Q&A", kind=QueueKind.DOCQA)
    text = ("# AscendC questions\n\n## Why must DataCopy lengths be 32-byte aligned?\n\nAsked in the forum.\n\n"
            "### Reasoning\nMTE moves 32-byte blocks.\n\n### Answer\nBecause the copy unit moves 32 B blocks.\n\n"
            "## What does TQue depth 2 buy?\n")
    items = services.docqa_import_markdown(queue, text, by=people["admin"])
    assert [i.title for i in items] == ["Why must DataCopy lengths be 32-byte aligned?", "What does TQue depth 2 buy?"]
    assert items[0].question.strip() == "Asked in the forum."
    [imported] = items[0].annotations.all()
    assert imported.status == Status.SUBMITTED
    assert [s["kind"] for s in imported.sections] == ["reasoning", "answer"]
    assert not items[1].annotations.exists()
    call_command("grant_role", user="nobody", role="reviewer")
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="nobody").has_perm("annotations.review")
