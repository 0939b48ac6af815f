"""pass@k with the unbiased estimator of Chen et al. (2021): 1 − C(n−c, k) / C(n, k).

Kept here because bench_runner had no metrics module when the API needed one; if
bench_runner.metrics appears, prefer it and make this a re-export.
"""

from __future__ import annotations

from math import comb


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Probability that at least one of k samples drawn from n (c correct) passes.

    None when fewer than k samples exist (the estimate is undefined).
    """
    if n < 0 or c < 0 or k < 1 or c > n:
        raise ValueError(f"need 0 <= c <= n and k >= 1 (n={n}, c={c}, k={k})")
    if n < k:
        return None
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)
