"""Which runs a board may rank: the coverage rule, in one place (issue #30).

Why: pass@k is a mean over the tasks a run judged. A run that judged 4 easy tasks of 245 would
otherwise top a board beside runs that judged all of them, and a run that stopped sampling a task
as soon as one sample passed would beat one that judged all k. So a number is ranked only
against numbers standing on the same tasks × samples:

* the **scope** of a board is its tasks: the suite, split, level, shape and category filters,
  not retired, and offering the board's path when it has one (``selectors.board_scope``). In
  benchmark mode (``?split=eval``) the scope is the held-out tasks, so a run is complete there
  only if it judged every one of them;
* a task is **covered** by a run when it has at least the run's ``samples_per_task`` (k)
  samples with a verdict (on any path, unless the board filters one; unjudged samples never
  count);
* a run is **complete** when it covers every task of the scope and has no unjudged sample.

Complete runs are ranked by the board's column. Every other run is *partial*: listed after all
of them, in the same column order, with no rank and its coverage ("4 / 245 tasks"). The pages,
the API and the CSV/JSON exports all order rows through ``selectors.sort_rows``, which asks
this module. Nothing here touches the database.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from leaderboard.metrics import Cell, TaskTally


@dataclass(frozen=True)
class Scope:
    """The tasks a board scores (ids), and whether they are the held-out evaluation tasks."""

    task_ids: frozenset[int]
    held_out: bool = False

    @property
    def size(self) -> int:
        return len(self.task_ids)

    def fingerprint(self) -> str:
        """Changes whenever a task enters or leaves the scope (a task synced in, retired, moved
        between splits), so a cached row's coverage is never read against another scope."""
        ids = ",".join(str(i) for i in sorted(self.task_ids))
        return f"{len(self.task_ids)}:{hashlib.sha256(ids.encode()).hexdigest()[:12]}"


@dataclass(frozen=True)
class Coverage:
    """How much of a board's scope one run judged."""

    tasks_in_scope: int
    #: Tasks of the scope with at least k judged samples.
    tasks_covered: int
    #: Tasks of the scope with any judged sample.
    tasks_attempted: int
    #: k: the samples the run said it draws per task.
    samples_per_task: int
    #: Judged samples on tasks of the scope, and what a complete run has (scope × k).
    samples_judged: int
    samples_expected: int
    #: Samples the infrastructure could not judge (never in the counts above).
    unjudged: int = 0
    held_out: bool = False

    @property
    def complete(self) -> bool:
        """Every task of the scope judged k times and nothing left unjudged: the run may rank."""
        return self.tasks_in_scope > 0 and self.tasks_covered == self.tasks_in_scope and self.unjudged == 0

    @property
    def partial(self) -> bool:
        """Some task of the scope lacks its k judged samples (as opposed to a run short only of
        verdicts the infrastructure owes it, which the boards call incomplete)."""
        return self.tasks_covered < self.tasks_in_scope

    @property
    def label(self) -> str:
        """What the board prints beside a partial run, e.g. ``4 / 245 tasks``."""
        kind = "held-out tasks" if self.held_out else "tasks"
        return f"{self.tasks_covered} / {self.tasks_in_scope} {kind}"

    def as_dict(self) -> dict[str, Any]:
        return {"tasks_in_scope": self.tasks_in_scope, "tasks_covered": self.tasks_covered,
                "tasks_attempted": self.tasks_attempted, "samples_per_task": self.samples_per_task,
                "samples_judged": self.samples_judged, "samples_expected": self.samples_expected,
                "held_out": self.held_out, "complete": self.complete, "label": self.label}


def measure(tallies: Iterable[TaskTally], scope: Scope, *, samples_per_task: int) -> Coverage:
    """The coverage of one run's tallies (one per task, paths summed) over ``scope``.

    A run that declares fewer than one sample per task is held to one: a task with no verdict is
    never covered.
    """
    k = max(1, samples_per_task)
    covered = attempted = judged = unjudged = 0
    for tally in tallies:
        unjudged += tally.unjudged
        if tally.task_id not in scope.task_ids:
            continue
        judged += tally.n
        attempted += tally.n > 0
        covered += tally.n >= k
    return Coverage(tasks_in_scope=scope.size, tasks_covered=covered, tasks_attempted=attempted,
                    samples_per_task=k, samples_judged=judged, samples_expected=scope.size * k,
                    unjudged=unjudged, held_out=scope.held_out)


def orders_by(value: Any, coverage: Coverage) -> bool:
    """Whether a complete run's value in a column may order it among the ranked runs.

    A pass@k cell is a mean over the tasks with at least k judged samples; for k above the
    run's own it may stand on a few tasks only (two paths judged, say), which is the
    cherry-pick again. Such a cell is shown but sorts with the runs that have no value.
    """
    if isinstance(value, Cell):
        return value.value is not None and value.tasks >= coverage.tasks_in_scope
    return value is not None
