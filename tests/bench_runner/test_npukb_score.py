"""NPUKernelBench's score (bench_runner/npukb_score.py), computed by hand for a seeded run."""

from __future__ import annotations

import pytest

from bench_runner.npukb_score import LEVEL_WEIGHTS, TaskCases, score


def test_a_seeded_run_scores_as_the_benchmark_does() -> None:
    run = [
        TaskCases("Abs", 1, 10, 10),        # 100
        TaskCases("Add", 1, 5, 10),         # 50
        TaskCases("Softmax", 2, 3, 12),     # 25
        TaskCases("Gemm", 3, 0, 8),         # 0
        TaskCases("TopK", 3, 6, 6),         # 100
    ]
    s = score(run)
    assert s.levels == {1: 75.0, 2: 25.0, 3: 50.0}
    assert s.total == pytest.approx(0.2 * 75 + 0.3 * 25 + 0.5 * 50)  # 47.5
    assert s.to_dict() == {"levels": {"1": 75.0, "2": 25.0, "3": 50.0}, "total": 47.5, "tasks": 5}


def test_tasks_the_run_did_not_attempt_count_as_zero() -> None:
    """With the benchmark's task counts per level, the mean runs over every task of the level."""
    s = score([TaskCases("Abs", 1, 4, 4)], levels={1: 4, 2: 2, 3: 1})
    assert s.levels == {1: 25.0, 2: 0.0, 3: 0.0} and s.total == pytest.approx(5.0)


def test_weights_are_the_benchmarks() -> None:
    assert LEVEL_WEIGHTS == {1: 0.2, 2: 0.3, 3: 0.5}


@pytest.mark.parametrize(("passed", "total"), [(-1, 3), (4, 3)])
def test_impossible_counts_are_refused(passed: int, total: int) -> None:
    with pytest.raises(ValueError, match="passed cases"):
        TaskCases("X", 1, passed, total)
