"""The leaderboard's rules against brute force and hand-built data."""

from __future__ import annotations

import itertools
import math
import random
from datetime import datetime, timedelta

import numpy as np
import pytest

from leaderboard import metrics
from leaderboard.metrics import TaskTally


def brute_pass_at_k(outcomes: list[bool], k: int) -> float:
    """Share of all k-subsets of the samples that hold at least one success."""
    subsets = list(itertools.combinations(outcomes, k))
    return sum(any(s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 10])
def test_pass_at_k_matches_enumerating_every_subset(n):
    rng = random.Random(n)
    for _ in range(6):
        outcomes = [rng.random() < 0.35 for _ in range(n)]
        c = sum(outcomes)
        for k in range(1, n + 1):
            expected = brute_pass_at_k(outcomes, k)
            assert metrics.pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)
            assert metrics.pass_at_k_array([n], [c], k)[0] == pytest.approx(expected, abs=1e-9)


def test_pass_at_k_array_handles_large_n_and_too_few_samples():
    n = np.array([200, 200, 3, 50])
    c = np.array([1, 0, 3, 50])
    got = metrics.pass_at_k_array(n, c, 10)
    assert got[0] == pytest.approx(10 / 200)  # one success in 200: pass@10 = 10/200
    assert got[1] == 0.0 and math.isnan(got[2]) and got[3] == 1.0
    assert metrics.pass_at_k(3, 1, 10) is None  # undefined with fewer than k samples
    with pytest.raises(ValueError):
        metrics.pass_at_k(3, 4, 1)


def test_bootstrap_interval_is_deterministic_and_agrees_with_a_plain_resampling():
    values = [1.0] * 30 + [0.0] * 70
    lo, hi = metrics.bootstrap_interval(values)
    assert (lo, hi) == metrics.bootstrap_interval(values)
    assert lo < 0.3 < hi and hi - lo < 0.25
    # A slow, obvious resampling with many more draws lands on nearly the same interval.
    rng = random.Random(1)
    means = sorted(sum(rng.choice(values) for _ in values) / len(values) for _ in range(4000))
    assert lo == pytest.approx(means[int(0.025 * 4000)], abs=0.02)
    assert hi == pytest.approx(means[int(0.975 * 4000)], abs=0.02)
    # More tasks, narrower interval; one task, no interval.
    lo4, hi4 = metrics.bootstrap_interval(values * 4)
    assert hi4 - lo4 < hi - lo
    assert metrics.bootstrap_interval([1.0]) is None
    assert metrics.bootstrap_interval([0.5] * 10) == (0.5, 0.5)


def test_fast_p_counts_correct_tasks_at_least_p_times_faster():
    correct = [True, True, True, False, True]
    speedups = [0.8, 1.0, 1.6, 3.0, None]
    assert metrics.fast_p(correct, speedups, 1.0) == pytest.approx(2 / 5)
    assert metrics.fast_p(correct, speedups, 1.5) == pytest.approx(1 / 5)
    assert metrics.fast_p([], [], 1.0) is None


def test_ties_go_to_the_earlier_submission():
    t0 = datetime(2026, 1, 1)
    entries = [(2.0, t0 + timedelta(hours=2), 3), (2.5, t0 + timedelta(hours=3), 4),
               (2.0, t0 + timedelta(hours=1), 9), (1.0, t0, 1)]
    ordered = sorted(entries, key=lambda e: metrics.rank_key(*e))
    assert [e[2] for e in ordered] == [4, 9, 3, 1]


def test_people_score_weights_levels_and_caps_the_speed_bonus():
    assert metrics.people_score({1: (1, 1.0), 2: (2, None), 3: (3, 0.5)}) == pytest.approx(0.2 + 0.3 + 0.5)
    assert metrics.people_score({1: (3, 2.0)}) == pytest.approx(0.5 * 1.5)
    assert metrics.people_score({1: (3, 64.0)}) == pytest.approx(0.5 * 1.5)  # capped at 2x
    assert metrics.people_score({1: (1, math.sqrt(2))}) == pytest.approx(0.2 * 1.25)


def test_summarize_one_run():
    tallies = [
        TaskTally(1, 1, n=10, compiled=10, passed=10, best_speedup=1.6, speedup_count=10, speedup_sum=12.0,
                  speedup_log_sum=10 * math.log(1.2)),
        TaskTally(2, 2, n=10, compiled=5, passed=0, best_speedup=None),
        TaskTally(3, 2, n=4, compiled=4, passed=1, best_speedup=0.9, speedup_count=1, speedup_sum=0.9,
                  speedup_log_sum=math.log(0.9)),
    ]
    row = metrics.summarize(tallies)
    assert row["tasks"] == 3 and row["samples"] == 24 and row["solved"] == 2
    assert row["exec@1"].value == pytest.approx((1.0 + 0.0 + 0.25) / 3)
    assert row["compile@1"].value == pytest.approx((1.0 + 0.5 + 1.0) / 3)
    # pass@10 leaves out the task with only 4 samples.
    assert row["exec@10"].tasks == 2 and row["exec@10"].value == pytest.approx(0.5)
    assert row["mean_speedup"] == pytest.approx(12.9 / 11)
    assert row["geomean_speedup"] == pytest.approx(math.exp((10 * math.log(1.2) + math.log(0.9)) / 11))
    assert row["fast_1"] == pytest.approx(1 / 3) and row["fast_1.5"] == pytest.approx(1 / 3)
    low, high = row["exec@1"].low, row["exec@1"].high
    assert low <= row["exec@1"].value <= high
    curve = metrics.pass_curve(tallies, 10)
    assert curve[0] == (1, pytest.approx(row["exec@1"].value)) and curve[-1][1] == pytest.approx(0.5)
    assert all(a[1] <= b[1] for a, b in zip(curve[:3], curve[1:4], strict=True))


def test_large_n_stays_exact_and_bad_input_is_refused():
    n, c, k = 200, 20, 100
    stable = 1.0
    for i in range(n - c + 1, n + 1):
        stable *= 1.0 - k / i
    assert metrics.pass_at_k(n, c, k) == pytest.approx(1.0 - stable)
    with pytest.raises(ValueError):
        metrics.pass_at_k(3, 1, 0)
