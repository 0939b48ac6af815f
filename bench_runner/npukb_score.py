"""NPUKernelBench's own score: how the benchmark ranks a run, next to akgen's metrics.

Why: a model team compares itself with the AscendKernelGen paper's tables, which use this score,
not pass@k. The benchmark scores a task by the share of its cases that passed (× 100), a level by
the mean over its tasks, and the whole run by the levels weighted 0.2 / 0.3 / 0.5 (L1 / L2 / L3).
A task that was not attempted, or whose cases could not run, scores 0: the denominators are the
benchmark's, never only what akgen could judge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: The benchmark's level weights (L1 elementwise, L2 operators, L3 GEMM and friends).
LEVEL_WEIGHTS: dict[int, float] = {1: 0.2, 2: 0.3, 3: 0.5}


@dataclass(frozen=True, slots=True)
class TaskCases:
    """One benchmark task's cases in a run: how many of all its cases passed."""

    name: str
    level: int
    passed: int
    total: int

    def __post_init__(self) -> None:
        if self.total < 0 or not 0 <= self.passed <= max(self.total, 0):
            raise ValueError(f"{self.name}: {self.passed} passed cases of {self.total}")

    @property
    def score(self) -> float:
        """Passed cases over all cases, × 100 (0 for a task without cases)."""
        return 100.0 * self.passed / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class Score:
    """Per-level means and the weighted total, each in 0..100."""

    levels: dict[int, float]
    total: float
    tasks: int

    def to_dict(self) -> dict[str, object]:
        return {"levels": {str(k): round(v, 2) for k, v in sorted(self.levels.items())},
                "total": round(self.total, 2), "tasks": self.tasks}


def score(tasks: Iterable[TaskCases], levels: Mapping[int, int] | None = None) -> Score:
    """The benchmark's score of ``tasks``. ``levels`` (level → number of tasks the benchmark has
    there) makes the mean run over every task of the level, counting the missing ones as 0;
    without it, over the tasks given."""
    by_level: dict[int, list[float]] = {}
    seen = 0
    for t in tasks:
        by_level.setdefault(t.level, []).append(t.score)
        seen += 1
    means: dict[int, float] = {}
    for level in sorted(set(by_level) | set(levels or {})):
        got = by_level.get(level, [])
        n = max(len(got), (levels or {}).get(level, 0))
        means[level] = sum(got) / n if n else 0.0
    total = sum(LEVEL_WEIGHTS.get(level, 0.0) * m for level, m in means.items())
    return Score(means, total, seen)
