"""The workspace hands annotators only what everyone may see, and its fix editor obeys the
limits every other way of submitting obeys.

Entry points that hand a submission to someone other than its author: the fill rules, adding
an item by hand, the items an annotator or reviewer may open, the taxonomy drill-down and the
release pools (releases.sources.SHARED); each is checked against one private failing kernel.
"""

from __future__ import annotations

import uuid

import pytest

from annotations import selectors, services
from annotations.errors import InvalidContent, InvalidState
from annotations.models import Item
from leaderboard.selectors import taxonomy_failures
from releases.sources import SHARED
from submissions.models import Evaluation
from tests.platform.annotations.conftest import COMPILE_RESULT, EXPERT, submit

pytestmark = pytest.mark.django_db


def test_a_private_kernel_reaches_no_one_but_its_author_and_staff(people, add_task, fix_queue):
    owner = people["bob"]
    private = submit(add_task, EXPERT.replace("SetGlobalBuffer", "SetGlobalBufer") + "// mine\n",
                     COMPILE_RESULT, author=owner)
    private.visibility = "private"
    private.save()
    public = submit(add_task, EXPERT.replace("SetGlobalBuffer", "SetGlobalBufr") + "// ours\n", COMPILE_RESULT,
                    author=owner)

    added = services.queue_fill(fix_queue, "new_failure_categories", by=people["admin"])
    assert [i.submission_id for i in added] == [public.pk]  # the newest failure, had it been shared, was private
    with pytest.raises(InvalidContent, match="private"):
        services.item_add_by_hand(fix_queue, f"#{private.pk}", by=people["admin"])
    # An item made before this rule existed stays hidden from everyone who may not see its kernel.
    legacy = Item.objects.create(queue=fix_queue, source="submission", submission=private, task=add_task,
                                 task_version=add_task.current_version, title="legacy", category="undeclared")
    for role in ("ann", "rev", "admin"):
        assert legacy not in selectors.items_visible_to(people[role]), role
    assert not Evaluation.objects.filter(SHARED, submission=private).exists()
    assert Evaluation.objects.filter(SHARED, submission=public).exists()
    seen_by_annotator = {e.submission_id for e in taxonomy_failures("undeclared", user=people["ann"])}
    seen_by_owner = {e.submission_id for e in taxonomy_failures("undeclared", user=owner)}
    assert private.pk not in seen_by_annotator and {private.pk, public.pk} <= seen_by_owner


def test_the_fix_editor_obeys_the_pending_cap_and_the_allowance(people, add_task, fix_queue, settings):
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
    failing = submit(add_task, EXPERT.replace("SetGlobalBuffer", "SetGlobalBufer"), COMPILE_RESULT)
    annotation = services.item_claim(people["ann"], services.item_add_submission(fix_queue, failing))
    settings.AKGEN_MAX_PENDING_PER_USER = 1
    services.fix_evaluate(people["ann"], annotation, EXPERT + "// 1\n")
    with pytest.raises(InvalidState, match="limit is 1"):
        services.fix_evaluate(people["ann"], annotation, EXPERT + "// 2\n")
    settings.AKGEN_MAX_PENDING_PER_USER = 100
    settings.AKGEN_RATE_SUBMIT_USER_PER_MIN = 3  # the two above counted too (the refused one included)
    services.fix_evaluate(people["ann"], annotation, EXPERT + "// 3\n")
    with pytest.raises(InvalidState, match="submissions a minute"):
        services.fix_evaluate(people["ann"], annotation, EXPERT + "// 4\n")
