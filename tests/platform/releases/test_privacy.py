"""A release holds only what everyone may see (submissions.selectors.visibility_q with no user):
a private kernel — an annotator's fix, a failing kernel an item was made from before the rule,
a private run sample a correction could take as its target — is in no file of a release, and
the same kernel shared is (so the check can fail)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from annotations.models import Item, ItemSource, Queue, QueueKind, Status
from releases import builder, services
from submissions.models import Submission
from tests.platform.releases.conftest import PASSED, T0, WRONG, approve, expert, submit

pytestmark = pytest.mark.django_db

#: Markers no seeded record contains: each private kernel carries one.
FIX = "PRIVATE_FIX_7f3c"
FAILING = "PRIVATE_FAILING_91ab"
TARGET = "PRIVATE_TARGET_c0de"


def _release_text(folder: Path, tmp_path: Path) -> str:
    """Every byte a reader of the release gets: its files, and the zip's members unpacked."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*")) if p.is_file()]
    archive = tmp_path / f"{folder.name}.zip"
    builder.zip_release(folder, archive, prefix=folder.name)
    with zipfile.ZipFile(archive) as zf:
        texts += [zf.read(name).decode("utf-8") for name in zf.namelist() if not name.endswith("/")]
    return "\n".join(texts)


def _private_work(seeded) -> dict[str, Submission]:
    """An approved fix kept private (as the fix editor makes it), a legacy fix item on a private
    failing kernel with a shared fix, and a private passing sample of the run (a correction's
    candidate target)."""
    task, users = seeded["tasks"]["exp"], seeded["users"]
    fixq = Queue.objects.get(kind=QueueKind.FIX)
    shared_failure = submit(task, expert("exp").replace("1024", "1012") + "// shared failure\n", WRONG,
                            author=users["lab"])
    fix = submit(task, expert("exp", 4) + f"// {FIX}\n", PASSED, author=users["bob"], visibility="private")
    item = Item.objects.create(queue=fixq, source=ItemSource.SUBMISSION, task=task, task_version=task.current_version,
                               submission=shared_failure, title="Fix exp (private fix)", category="numerical_mismatch",
                               verdict="wrong_answer")
    approve(item, users["bob"], users["rev"], at=T0, category="numerical_mismatch", diagnosis="It computes 1012.",
            sections=[{"kind": "fix", "text": "Restored the length.", "lines": None}], fix_submission=fix)

    failing = submit(task, expert("exp").replace("1024", "1016") + f"// {FAILING}\n", WRONG, author=users["lab"],
                     visibility="private")
    public_fix = submit(task, expert("exp", 5) + "// shared fix of a private failure\n", PASSED, author=users["ann"])
    legacy = Item.objects.create(queue=fixq, source=ItemSource.SUBMISSION, task=task,
                                 task_version=task.current_version, submission=failing, title="Fix exp (legacy)",
                                 category="numerical_mismatch", verdict="wrong_answer")
    approve(legacy, users["ann"], users["rev"], at=T0, category="numerical_mismatch", diagnosis="It computes 1016.",
            sections=[{"kind": "fix", "text": "Restored the length.", "lines": None}], fix_submission=public_fix)

    # A private passing sample later in the run than a shared failing one: the target it would pick.
    lonely = seeded["tasks"]["gelu"]
    other = seeded["other"]
    target = submit(lonely, expert("gelu", 6) + f"// {TARGET}\n", PASSED, author=users["lab"], run=other, sample=7,
                    visibility="private")
    submit(lonely, expert("gelu").replace("1024", "1020") + "// a shared failing sample\n", WRONG,
           author=users["lab"], run=other, sample=6)
    return {"fix": fix, "failing": failing, "target": target}


def test_a_release_built_after_a_private_fix_contains_none_of_its_source(seeded, tmp_path):
    private = _private_work(seeded)
    data = {"validation_percent": 30, "min_review": "submitted"}  # the widest pool of annotations
    out = tmp_path / "private"
    services.build_into(out, number=1, data=data)
    text = _release_text(out, tmp_path)
    assert [marker for marker in (FIX, FAILING, TARGET) if marker in text] == []
    # The preview counts from the same pools: it shows nothing of them either.
    preview = services.preview(data, per_subset=50)
    assert not any(marker in repr(preview.samples) for marker in (FIX, FAILING, TARGET))

    # The same kernels shared do ship: the check above can fail.
    Submission.objects.filter(pk__in=[s.pk for s in private.values()]).update(visibility="public")
    shared = tmp_path / "shared"
    services.build_into(shared, number=2, data=data)
    text = _release_text(shared, tmp_path)
    for marker in (FIX, FAILING, TARGET):
        assert marker in text, marker


def test_a_private_fix_leaves_its_failure_to_the_automatic_corrections(seeded, tmp_path):
    """A human fix that may not ship does not hold back the automatic correction of a shared run
    sample it fixed: the sample still teaches, with a shared target."""
    task, users = seeded["tasks"]["relu"], seeded["users"]
    sample = seeded["run"].submissions.get(task=task, sample_index=2)
    fix = submit(task, expert("relu", 4) + f"// {FIX}\n", PASSED, author=users["bob"], visibility="private")
    item = Item.objects.create(queue=Queue.objects.get(kind=QueueKind.FIX), source=ItemSource.SUBMISSION, task=task,
                               task_version=task.current_version, submission=sample, title="Fix relu sample",
                               category="numerical_mismatch", verdict="wrong_answer")
    approve(item, users["bob"], users["rev"], at=T0, status=Status.APPROVED, category="numerical_mismatch",
            diagnosis="Wrong length.", sections=[{"kind": "fix", "text": "Length.", "lines": None}],
            fix_submission=fix)
    out = tmp_path / "auto"
    services.build_into(out, number=1, data={"validation_percent": 0, "subsets": ["kernel_fix"]})
    assert FIX not in _release_text(out, tmp_path)
    records = [json.loads(line) for path in sorted(out.glob("kernel_fix/*.jsonl"))
               for line in path.read_text(encoding="utf-8").splitlines()]
    [auto] = [r for r in records if r["meta"]["submission_id"] == sample.pk]
    assert auto["meta"]["source"] == "auto"
