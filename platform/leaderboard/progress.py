"""A run's progress while it is judged: per task the samples submitted, pending and judged, and
pass@1 and pass@k so far (leaderboard.metrics' estimator), as /api/v1/runs/<id>/ reports it."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q

from leaderboard.metrics import pass_at_k
from submissions.models import PENDING_STATUSES, EvalStatus, Evaluation, Run
from tasks import splits


@dataclass
class TaskProgress:
    task: str
    submitted: int = 0
    pending: int = 0
    evaluated: int = 0  # finished with a verdict (n in pass@k)
    failed: int = 0  # infrastructure failures, not counted in n
    compiled: int = 0
    passed: int = 0
    pass_at_1: float | None = None
    pass_at_k: float | None = None
    split: str = "train"  # eval: a held-out evaluation task (tasks.splits)


@dataclass
class RunProgress:
    run: Run
    k: int
    tasks: list[TaskProgress] = field(default_factory=list)
    submitted: int = 0
    pending: int = 0
    evaluated: int = 0
    failed: int = 0
    compiled: int = 0
    passed: int = 0
    tasks_complete: int = 0  # tasks with at least k evaluated samples
    pass_at_1: float | None = None  # mean over tasks with any evaluated sample
    pass_at_k: float | None = None  # mean over tasks with at least k evaluated samples
    #: Which split the counted tasks are in: eval (benchmark mode), train, mixed or none.
    scored_on: str = "none"
    eval_tasks: int = 0
    train_tasks: int = 0
    #: What the progress was restricted to (run_progress's ``split``).
    restricted_to: str = "all"


def scored_on(eval_tasks: int, train_tasks: int) -> str:
    """The split a set of tasks is: eval, train, mixed, or none when there are no tasks."""
    if eval_tasks and train_tasks:
        return "mixed"
    return "eval" if eval_tasks else "train" if train_tasks else "none"


def run_progress(run: Run, *, split: str = "all") -> RunProgress:
    """Per task: samples submitted, pending, evaluated, compiled, passed, pass@1 and pass@k so far.

    n is the number of evaluations finished with a verdict; infrastructure failures are not the
    model's fault and are left out of n. pass@k is None until a task has k evaluated samples.
    ``split`` (eval, train or all) keeps only that split's tasks; ``scored_on`` says which split
    the counted tasks are in, so a run sampled on the evaluation tasks says so.
    """
    held_out = splits.eval_slugs()
    rows = (
        Evaluation.objects.filter(submission__run=run, toolchain=run.toolchain)
        .values("submission__task__slug")
        .annotate(
            submitted=Count("id"),
            pending=Count("id", filter=Q(status__in=PENDING_STATUSES)),
            evaluated=Count("id", filter=Q(status=EvalStatus.DONE)),
            failed=Count("id", filter=Q(status=EvalStatus.FAILED)),
            compiled=Count("id", filter=Q(status=EvalStatus.DONE, compiled=True)),
            passed=Count("id", filter=Q(status=EvalStatus.DONE, passed=True)),
        )
        .order_by("submission__task__slug")
    )
    k = max(1, run.samples_per_task)
    progress = RunProgress(run=run, k=k)
    at1: list[float] = []
    atk: list[float] = []
    progress.restricted_to = split
    for row in rows:
        item = TaskProgress(
            task=row["submission__task__slug"], submitted=row["submitted"], pending=row["pending"],
            evaluated=row["evaluated"], failed=row["failed"], compiled=row["compiled"], passed=row["passed"],
            split="eval" if row["submission__task__slug"] in held_out else "train",
        )
        if split != "all" and item.split != split:
            continue
        if item.split == "eval":
            progress.eval_tasks += 1
        else:
            progress.train_tasks += 1
        if item.evaluated:
            item.pass_at_1 = pass_at_k(item.evaluated, item.passed, 1)
            at1.append(item.pass_at_1)
        item.pass_at_k = pass_at_k(item.evaluated, item.passed, k)
        if item.pass_at_k is not None:
            atk.append(item.pass_at_k)
        progress.tasks.append(item)
        for name in ("submitted", "pending", "evaluated", "failed", "compiled", "passed"):
            setattr(progress, name, getattr(progress, name) + getattr(item, name))
    progress.scored_on = scored_on(progress.eval_tasks, progress.train_tasks)
    progress.tasks_complete = len(atk)
    progress.pass_at_1 = sum(at1) / len(at1) if at1 else None
    progress.pass_at_k = sum(atk) / len(atk) if atk else None
    return progress
