"""Who may do what in the workspace, checked in the services and through the pages."""

from __future__ import annotations

import pytest
from django.test import Client

from annotations import selectors, services
from annotations.errors import NotAllowed, NotVisible
from annotations.models import QueueKind, Status
from tests.platform.annotations.conftest import COMPILE_RESULT, EXPERT, PASSED_RESULT, judge, submit

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def closed_queue(db):
    return services.queue_create(by=None, slug="closed", name="Closed fixes", kind=QueueKind.FIX, is_open=False)


@pytest.fixture
def submitted(people, add_task, explain_queue):
    """bob's explanation, submitted; ann's, a draft."""
    item = services.fill_expert_kernels(explain_queue)[0]
    bobs = services.item_claim(people["bob"], item)
    services.annotation_save(people["bob"], bobs, sections=[{"kind": "perf", "text": "Copy-bound.", "lines": [1, 2]}])
    services.annotation_submit(people["bob"], bobs)
    anns = services.item_claim(people["ann"], item)
    services.annotation_save(people["ann"], anns, sections=[{"kind": "sync", "text": "secret draft", "lines": None}])
    return item, bobs, anns


def test_annotator_cannot_approve_or_request_changes(people, submitted):
    _, bobs, _ = submitted
    with pytest.raises(NotAllowed, match="Only reviewers"):
        services.review_approve(people["ann"], bobs)
    with pytest.raises(NotAllowed):
        services.review_request_changes(people["ann"], bobs, comments=[("", "no")])
    response = client_for(people["ann"]).post(f"/workspace/review/a/{bobs.pk}/decide/", {"decision": "approve"})
    assert response.status_code == 404  # another's annotation does not even exist for an annotator
    bobs.refresh_from_db()
    assert bobs.status == Status.SUBMITTED
    assert client_for(people["ann"]).get("/workspace/review/").status_code == 403
    assert client_for(people["ann"]).get("/workspace/dashboard/").status_code == 404


def test_reviewer_cannot_approve_own_work_and_sees_no_drafts(people, submitted):
    item, bobs, anns = submitted
    assert [a.pk for a in selectors.review_annotations(people["rev"], item)] == [bobs.pk]
    with pytest.raises(NotVisible):
        selectors.annotation_get_visible(people["rev"], anns.pk)
    mine = services.item_claim(people["rev"], services.item_add_question(
        services.queue_create(by=None, slug="qa", name="QA", kind=QueueKind.DOCQA), title="Q?", question=""))
    services.annotation_save(people["rev"], mine, sections=[{"kind": "answer", "text": "A.", "lines": None}])
    services.annotation_submit(people["rev"], mine)
    with pytest.raises(NotAllowed, match="own annotation"):
        services.review_approve(people["rev"], mine)


def test_annotator_cannot_see_or_edit_anothers_draft(people, submitted):
    _, bobs, anns = submitted
    with pytest.raises(NotVisible):
        selectors.annotation_get_visible(people["bob"], anns.pk)
    with pytest.raises(NotVisible):
        services.annotation_save(people["bob"], anns, sections=[])
    bob = client_for(people["bob"])
    assert bob.get(f"/workspace/a/{anns.pk}/").status_code == 404
    assert bob.post(f"/workspace/a/{anns.pk}/save/", {"s-sync-text": "overwritten"}).status_code == 404
    assert bob.post(f"/workspace/a/{anns.pk}/submit/").status_code == 404
    anns.refresh_from_db()
    assert anns.sections[0]["text"] == "secret draft"
    page = client_for(people["ann"]).get(f"/workspace/a/{anns.pk}/")
    assert page.status_code == 200 and b"secret draft" in page.content and b"Copy-bound" not in page.content


def test_annotator_cannot_read_items_outside_their_queues(people, add_task, closed_queue):
    failing = submit(add_task, EXPERT + "// broken\n", COMPILE_RESULT)
    item = services.item_add_submission(closed_queue, failing)
    ann = client_for(people["ann"])
    with pytest.raises(NotVisible):
        selectors.item_get_visible(people["ann"], item.pk)
    with pytest.raises(NotVisible):
        services.item_claim(people["ann"], item)
    assert ann.get("/workspace/q/closed/").status_code == 404
    assert ann.post(f"/workspace/items/{item.pk}/start/").status_code == 404
    assert b"Closed fixes" not in ann.get("/workspace/").content
    # Once assigned, the item and its queue are visible to the assignee only.
    [assignment] = services.assign(closed_queue, [people["bob"]], by=people["admin"])
    assert client_for(people["bob"]).get(f"/workspace/a/{assignment.pk}/").status_code == 200
    assert client_for(people["bob"]).get("/workspace/q/closed/").status_code == 200
    assert ann.get("/workspace/q/closed/").status_code == 404


def test_people_without_a_role_are_kept_out(people, submitted):
    outsider = client_for(people["nobody"])
    assert outsider.get("/workspace/").status_code == 403
    assert b"Workspace" not in outsider.get("/tasks/").content.split(b"<main")[0]
    assert b"nav-workspace" in client_for(people["ann"]).get("/tasks/").content
    assert Client().get("/workspace/").status_code == 302  # to the login page
    with pytest.raises(NotAllowed):
        services.item_claim(people["nobody"], submitted[0])
    with pytest.raises(NotAllowed):
        services.queue_create(by=people["ann"], slug="x", name="x", kind=QueueKind.EXPLAIN)
    assert client_for(people["ann"]).post("/workspace/q/explain/manage/", {"action": "fill",
                                                                            "rule": "expert_kernels"}).status_code == 403


def test_every_page_renders_for_its_role(people, add_task, fix_queue, submitted):
    item, bobs, anns = submitted
    failing = submit(add_task, EXPERT + "// broken\n", COMPILE_RESULT)
    fix_item = services.item_add_submission(fix_queue, failing)
    fix = services.item_claim(people["ann"], fix_item)
    judge(services.fix_evaluate(people["ann"], fix, EXPERT).submission, PASSED_RESULT)
    ann, rev, boss = client_for(people["ann"]), client_for(people["rev"]), client_for(people["admin"])
    for client, url in [(ann, "/workspace/"), (ann, "/workspace/q/explain/"), (ann, f"/workspace/a/{anns.pk}/"),
                        (ann, f"/workspace/a/{fix.pk}/"), (ann, f"/workspace/a/{fix.pk}/fix-status/"),
                        (rev, "/workspace/review/"), (rev, f"/workspace/review/items/{item.pk}/"),
                        (rev, "/workspace/dashboard/"), (boss, "/workspace/q/fix/")]:
        response = client.get(url)
        assert response.status_code == 200, url
    fix_page = ann.get(f"/workspace/a/{fix.pk}/").content.decode()
    assert 'data-verdict="passed"' in fix_page and "SetGlobalBufer" in fix_page
    saved = ann.post(f"/workspace/a/{anns.pk}/save/", {"s-sync-text": "EnQue/DeQue order the pipes.",
                                                       "s-sync-from": "2", "s-sync-to": "4", "spent": "12"})
    assert b'data-state="saved"' in saved.content
    anns.refresh_from_db()
    assert anns.sections == [{"kind": "sync", "text": "EnQue/DeQue order the pipes.", "lines": [[2, 4]]}]
    ann.post(f"/workspace/a/{anns.pk}/save/", {"s-sync-text": "Both ends.", "s-sync-lines": "4-5, 1-2"})
    anns.refresh_from_db()
    assert anns.sections[0]["lines"] == [[1, 2], [4, 5]]
    assert anns.time_spent_s == 12
    bad = ann.post(f"/workspace/a/{anns.pk}/save/", {"s-sync-text": "x", "s-sync-from": "900"})
    assert b'data-state="error"' in bad.content and b"outside the kernel" in bad.content


def test_admin_grants_roles_and_adds_items_by_hand(people, add_task, explain_queue):
    boss = client_for(people["admin"])
    assert client_for(people["ann"]).get("/workspace/roles/").status_code == 403
    assert client_for(people["rev"]).post("/workspace/roles/", {"username": "nobody", "role": "admin"}).status_code == 403
    response = boss.post("/workspace/roles/", {"username": "nobody", "role": "annotator"})
    assert response.status_code == 302
    page = boss.get("/workspace/roles/").content.decode()
    assert 'data-person="nobody"' in page
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="nobody").has_perm("annotations.annotate")
    boss.post("/workspace/roles/", {"username": "nobody", "role": "annotator", "action": "revoke"})
    assert not get_user_model().objects.get(username="nobody").has_perm("annotations.annotate")
    boss.post("/workspace/q/explain/manage/", {"action": "add", "ref": "add"})
    assert [i.source for i in explain_queue.items.all()] == ["expert"]
    again = boss.post("/workspace/q/explain/manage/", {"action": "add", "ref": "add"}, follow=True)
    assert b"already in this queue" in again.content
    passing = submit(add_task, EXPERT + "// mine\n", PASSED_RESULT)
    boss.post("/workspace/q/explain/manage/", {"action": "add", "ref": f"#{passing.pk}"})
    assert explain_queue.items.filter(submission=passing).exists()


def test_docqa_editor_saves_and_submits(people):
    queue = services.queue_create(by=None, slug="qa", name="QA", kind=QueueKind.DOCQA, guidelines="Cite the API.")
    item = services.item_add_question(queue, title="Why 32-byte alignment?", question="For `DataCopy`.")
    ann = client_for(people["ann"])
    response = ann.post(f"/workspace/items/{item.pk}/start/")
    annotation = item.annotations.get()
    assert response.url == f"/workspace/a/{annotation.pk}/"
    page = ann.get(response.url).content.decode()
    assert "<code>DataCopy</code>" in page and "Cite the API." in page
    ann.post(f"/workspace/a/{annotation.pk}/submit/", {"s-reasoning-text": "MTE moves 32 B blocks.",
                                                       "s-answer-text": "The copy unit's granule is 32 B."})
    annotation.refresh_from_db()
    assert annotation.status == Status.SUBMITTED and [s["kind"] for s in annotation.sections] == ["reasoning", "answer"]


def test_django_admin_lists_workspace_models(people, submitted):
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.create_superuser("root", password="pw-root")
    admin = client_for(root)
    for url in ("/admin/annotations/queue/", "/admin/annotations/item/", "/admin/annotations/annotation/",
                f"/admin/annotations/annotation/{submitted[1].pk}/change/"):
        assert admin.get(url).status_code == 200, url
