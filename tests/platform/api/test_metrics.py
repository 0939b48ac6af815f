"""pass@k: the unbiased estimator agrees with brute-force enumeration of k-subsets."""

from itertools import combinations

import pytest

from submissions.metrics import pass_at_k


@pytest.mark.parametrize("n, c, k", [(5, 0, 1), (5, 2, 1), (5, 2, 3), (6, 1, 6), (7, 3, 2), (4, 4, 2), (10, 1, 5)])
def test_matches_enumeration(n, c, k):
    samples = [True] * c + [False] * (n - c)
    subsets = list(combinations(range(n), k))
    expected = sum(any(samples[i] for i in s) for s in subsets) / len(subsets)
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_undefined_below_k_and_bad_input():
    assert pass_at_k(3, 1, 4) is None
    # large n stays exact: compare with the numerically stable product form
    n, c, k = 200, 20, 100
    stable = 1.0
    for i in range(n - c + 1, n + 1):
        stable *= 1.0 - k / i
    assert pass_at_k(n, c, k) == pytest.approx(1.0 - stable)
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 0)
