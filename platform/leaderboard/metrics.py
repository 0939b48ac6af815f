"""The numbers every leaderboard shows, as plain functions over plain data.

One module serves the pages, the API and the exports, so a rule (how pass@k is estimated, what
counts as faster, how ties break, how people are scored) exists exactly once. Nothing here
touches the database.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench_runner.npukb_score import LEVEL_WEIGHTS  # NPUKernelBench weights a task by its level

#: The ks the model leaderboard reports; pass@k needs at least k samples of a task.
KS = (1, 5, 10)
#: fast_p thresholds shown (share of tasks correct and at least p times the baseline's speed).
FAST_PS = (1.0, 1.5)
#: Resamples for the 95% intervals; a fixed seed so a page shows the same interval on every load.
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20240917
#: People score: a solved task earns its level weight, plus up to this share more for speed
#: (log2 of the best speedup, capped at 2x the baseline).
SPEED_BONUS = 0.5


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Unbiased estimator 1 - C(n-c, k) / C(n, k) of solving a task with k of its n samples.

    None when fewer than k samples exist (the estimate is undefined). Computed as a running
    product, which stays accurate for n in the hundreds where the binomials overflow floats.
    """
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"need 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if k > n:
        return None
    if n - c < k:
        return 1.0
    miss = 1.0
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return 1.0 - miss


def pass_at_k_array(n: Sequence[int] | np.ndarray, c: Sequence[int] | np.ndarray, k: int) -> np.ndarray:
    """pass_at_k for many tasks at once; NaN where a task has fewer than k samples.

    log(miss) = sum_{i=n-c+1}^{n} log(1 - k/i) is a difference of one prefix sum, so a whole
    leaderboard costs one cumulative sum instead of a Python loop per task.
    """
    n = np.asarray(n, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    out = np.full(n.shape, np.nan)
    if n.size == 0:
        return out
    enough = n >= k
    sure = enough & (n - c < k)
    out[sure] = 1.0
    rest = enough & ~sure
    if rest.any():
        top = int(n[rest].max())
        i = np.arange(top + 1, dtype=float)
        terms = np.zeros(top + 1)
        terms[k + 1:] = np.log1p(-k / i[k + 1:])
        prefix = np.cumsum(terms)
        out[rest] = 1.0 - np.exp(prefix[n[rest]] - prefix[n[rest] - c[rest]])
    return out


def bootstrap_interval(values: Sequence[float] | np.ndarray, *, resamples: int = BOOTSTRAP_RESAMPLES,
                       seed: int = BOOTSTRAP_SEED, level: float = 0.95) -> tuple[float, float] | None:
    """Percentile interval of the mean over tasks, resampling tasks with replacement.

    Tasks, not samples, are the unit: the question is how the score would move on another draw
    of tasks like these. None for fewer than two tasks (no spread to estimate).
    """
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size < 2:
        return None
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    tail = (1.0 - level) / 2 * 100
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)


def fast_p(correct: Sequence[bool], speedups: Sequence[float | None], p: float) -> float | None:
    """Share of tasks that are correct and at least `p` times as fast as the baseline."""
    if len(correct) == 0:
        return None
    hits = sum(1 for ok, s in zip(correct, speedups, strict=True) if ok and s is not None and s >= p)
    return hits / len(correct)


def geometric_mean(values: Iterable[float]) -> float | None:
    logs = [math.log(v) for v in values if v is not None and v > 0]
    return math.exp(sum(logs) / len(logs)) if logs else None


def rank_key(speedup: float, submitted_at: Any, ident: int) -> tuple:
    """Order of a task leaderboard: faster first; a tie goes to whoever submitted first."""
    return (-speedup, submitted_at, ident)


def people_score(best_by_task: Mapping[int, tuple[int, float | None]]) -> float:
    """Σ over solved tasks of level weight × (1 + SPEED_BONUS × clip(log2 speedup, 0, 1)).

    `best_by_task` maps task id → (level, best speedup of the person's correct kernels).
    Solving matters most (a level-3 task is worth 2.5 level-1 tasks, as in NPUKernelBench);
    beating the expert kernel adds at most half again, so speed cannot outweigh breadth.
    """
    total = 0.0
    for level, speedup in best_by_task.values():
        bonus = 0.0
        if speedup is not None and speedup > 1.0:
            bonus = SPEED_BONUS * min(1.0, math.log2(speedup))
        total += LEVEL_WEIGHTS.get(level, 0.0) * (1.0 + bonus)
    return total


@dataclass(frozen=True)
class TaskTally:
    """One task's results within one run (what RunTaskStat rows hold, summed over their keys)."""

    task_id: int
    level: int
    n: int
    compiled: int
    passed: int
    best_speedup: float | None
    speedup_count: int = 0
    speedup_sum: float = 0.0
    speedup_log_sum: float = 0.0
    #: Samples without a verdict (the infrastructure failed): not in n, reported beside it.
    unjudged: int = 0


@dataclass(frozen=True)
class Cell:
    """A rate with its 95% interval (None where the rate is undefined, e.g. too few samples)."""

    value: float | None
    low: float | None = None
    high: float | None = None
    tasks: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "ci95": [self.low, self.high] if self.low is not None else None,
                "tasks": self.tasks}


def _cell(values: np.ndarray, *, intervals: bool) -> Cell:
    ok = values[~np.isnan(values)]
    if ok.size == 0:
        return Cell(None)
    ci = bootstrap_interval(ok) if intervals else None
    return Cell(float(ok.mean()), ci[0] if ci else None, ci[1] if ci else None, int(ok.size))


def summarize(tallies: Sequence[TaskTally], *, ks: Sequence[int] = KS, intervals: bool = True) -> dict[str, Any]:
    """The model leaderboard's numbers for one run over a set of tasks.

    compile@k / exec@k: mean over tasks of the unbiased pass@k over judged samples (tasks with
    fewer than k judged samples are left out of that column); speedups are over correct samples;
    fast_p over tasks attempted. ``unjudged`` counts samples that have no verdict: a run with any
    is not complete, and the boards say so instead of ranking it as if it were.
    """
    n = np.array([t.n for t in tallies], dtype=np.int64)
    comp = np.array([t.compiled for t in tallies], dtype=np.int64)
    passed = np.array([t.passed for t in tallies], dtype=np.int64)
    out: dict[str, Any] = {"tasks": len(tallies), "samples": int(n.sum()),
                           "unjudged": sum(t.unjudged for t in tallies)}
    for k in ks:
        out[f"compile@{k}"] = _cell(pass_at_k_array(n, comp, k), intervals=intervals)
        out[f"exec@{k}"] = _cell(pass_at_k_array(n, passed, k), intervals=intervals)
    count = sum(t.speedup_count for t in tallies)
    out["mean_speedup"] = sum(t.speedup_sum for t in tallies) / count if count else None
    out["geomean_speedup"] = math.exp(sum(t.speedup_log_sum for t in tallies) / count) if count else None
    correct = [t.passed > 0 for t in tallies]
    best = [t.best_speedup for t in tallies]
    for p in FAST_PS:
        out[f"fast_{p:g}"] = fast_p(correct, best, p)
    out["solved"] = sum(correct)
    return out


def pass_curve(tallies: Sequence[TaskTally], k_max: int) -> list[tuple[int, float | None]]:
    """Mean exec pass@k for k = 1..k_max (the paper's pass@k curves)."""
    n = np.array([t.n for t in tallies], dtype=np.int64)
    c = np.array([t.passed for t in tallies], dtype=np.int64)
    points = []
    for k in range(1, k_max + 1):
        values = pass_at_k_array(n, c, k)
        values = values[~np.isnan(values)]
        points.append((k, float(values.mean()) if values.size else None))
    return points
