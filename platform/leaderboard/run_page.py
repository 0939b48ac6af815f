"""What a run's page shows: per task × sample the verdicts, pass@k per task (leaderboard.progress,
the numbers the API reports), failures by category, and the samples not judged.

Why: a model team looks at one run far more than at the board — which tasks fail, how, and
which sample to open — and the API's per-task table does not say which sample is which.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Q

from bench_runner.taxonomy import title_of
from leaderboard.progress import RunProgress, TaskProgress, run_progress
from submissions.models import Evaluation, Run, Submission
from submissions.selectors import visibility_q


@dataclass(frozen=True, slots=True)
class SampleCell:
    sample_index: int
    submission_id: int
    status: str
    verdict: str
    speedup: float | None
    category: str
    #: Whether the viewer may open the sample (a private sample shows its verdict, not its code).
    visible: bool


@dataclass
class TaskRow:
    progress: TaskProgress
    title: str
    level: int
    cells: list[SampleCell | None] = field(default_factory=list)  # by sample index; None: not submitted


@dataclass
class RunPage:
    run: Run
    progress: RunProgress
    rows: list[TaskRow]
    failures: list[tuple[str, str, int]]  # (category, label, count), most frequent first
    sample_columns: list[int]

    @property
    def running(self) -> bool:
        return self.progress.pending > 0


def run_page(run: Run, user) -> RunPage:
    """The page of ``run`` as ``user`` may see it."""
    progress = run_progress(run)
    rule = visibility_q(user)
    visible = set(Submission.objects.filter(Q(run=run) & (rule if rule is not None else Q()))
                  .values_list("pk", flat=True))
    first: dict[int, dict] = {}
    rows = (Evaluation.objects.filter(submission__run=run, toolchain=run.toolchain).order_by("pk")
            .values("submission_id", "submission__sample_index", "submission__task__slug", "submission__task__title",
                    "submission__task__level", "status", "verdict", "speedup", "failure_category"))
    for row in rows:
        first.setdefault(row["submission_id"], row)  # a submission's first evaluation speaks for it
    by_task: dict[str, TaskRow] = {}
    columns = max(run.samples_per_task, 1)
    for p in progress.tasks:
        by_task[p.task] = TaskRow(progress=p, title="", level=0, cells=[None] * columns)
    failures: Counter = Counter()
    for sub_id, row in first.items():
        task = by_task.get(row["submission__task__slug"])
        if task is None:
            continue
        task.title, task.level = row["submission__task__title"], row["submission__task__level"]
        index = row["submission__sample_index"] or 0
        if index >= len(task.cells):
            task.cells.extend([None] * (index + 1 - len(task.cells)))
        task.cells[index] = SampleCell(index, sub_id, row["status"], row["verdict"], row["speedup"],
                                       row["failure_category"], sub_id in visible)
        if row["verdict"] and row["verdict"] != "passed":
            failures[row["failure_category"] or row["verdict"]] += 1
    width = max([columns, *(len(t.cells) for t in by_task.values())])
    for task in by_task.values():
        task.cells.extend([None] * (width - len(task.cells)))
    ordered = sorted(by_task.values(), key=lambda t: (t.level, t.progress.task))
    return RunPage(run=run, progress=progress, rows=ordered,
                   failures=[(c, title_of(c), n) for c, n in failures.most_common()],
                   sample_columns=list(range(width)))
