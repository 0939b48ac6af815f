"""A fresh install is not a dead end (issue #22): workspace admins create and edit queues in the
app — kind, guidelines, overlap, open or closed — and the demo set-up starts with a queue of each
kind; annotators cannot."""

from __future__ import annotations

import pytest
from django.test import Client

from annotations.models import Queue

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_admin_creates_and_edits_a_queue_in_the_app(people):
    admin = _client(people["admin"])
    assert 'data-testid="new-queue"' in admin.get("/workspace/").content.decode()
    created = admin.post("/workspace/queues/new/", {"name": "Norm kernels", "slug": "norms", "kind": "explain",
                                                     "guidelines": "Explain the **reduction**.", "overlap_target": 2,
                                                     "is_open": "on"})
    assert created.status_code == 302 and created["Location"] == "/workspace/q/norms/"
    queue = Queue.objects.get(slug="norms")
    assert (queue.kind, queue.overlap_target, queue.is_open) == ("explain", 2, True)
    page = admin.get("/workspace/q/norms/").content.decode()
    assert 'data-testid="edit-queue"' in page and "<strong>reduction</strong>" in page
    edited = admin.post("/workspace/q/norms/edit/", {"name": "Norms", "slug": "renamed", "kind": "fix",
                                                      "guidelines": "New rules.", "overlap_target": 1})
    assert edited.status_code == 302
    queue.refresh_from_db()
    assert (queue.name, queue.guidelines, queue.overlap_target, queue.is_open) == ("Norms", "New rules.", 1, False)
    assert (queue.slug, queue.kind) == ("norms", "explain")  # address and kind stay
    again = admin.post("/workspace/queues/new/", {"name": "x", "slug": "norms", "kind": "fix", "overlap_target": 1})
    assert again.status_code == 400 and "already a queue" in again.content.decode()
    bad = admin.post("/workspace/queues/new/", {"name": "y", "slug": "y", "kind": "fix", "overlap_target": 0})
    assert bad.status_code == 400 and not Queue.objects.filter(slug="y").exists()


def test_annotators_cannot_create_or_edit_queues(people, explain_queue):
    ann = _client(people["ann"])
    assert 'data-testid="new-queue"' not in ann.get("/workspace/").content.decode()
    assert ann.get("/workspace/queues/new/").status_code == 403
    refused = ann.post(f"/workspace/q/{explain_queue.slug}/edit/", {"name": "mine", "overlap_target": 1})
    assert refused.status_code == 403 and Queue.objects.get(pk=explain_queue.pk).name != "mine"


def test_the_demo_starts_with_a_queue_of_each_kind(db, settings, tmp_path):
    from django.core.management import call_command

    settings.VAR_DIR = tmp_path
    call_command("bootstrap_demo")
    assert sorted(Queue.objects.values_list("kind", flat=True)) == ["docqa", "explain", "fix"]
    call_command("bootstrap_demo")  # never a second set
    assert Queue.objects.count() == 3
