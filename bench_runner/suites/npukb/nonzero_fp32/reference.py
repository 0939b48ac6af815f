"""Golden model for nonzero_fp32: ascending indices of nonzeros, padded with -1, plus the count."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    nz = np.flatnonzero(x != 0)
    idx = np.full(x.shape[0], -1, dtype=np.int64)
    idx[:nz.size] = nz
    return {"indices": idx.astype(np.int32), "count": np.array([nz.size], dtype=np.int32)}


def make_inputs(case, rng):
    # Exact zeros mixed with nonzero values (never tiny or denormal): about half zeros, 90 %
    # in the *_sparse case, none but zeros in the *_allzero case. Zeros come in runs and singles.
    n = case.dims["N"]
    vals = rng.uniform(0.5, 2.0, n) * rng.choice([-1.0, 1.0], n)
    p_zero = 0.9 if "sparse" in case.name else 0.5
    zero = rng.random(n) < p_zero
    if n >= 64:   # a few longer runs of zeros and of nonzeros
        for _ in range(4):
            a = int(rng.integers(0, n))
            zero[a:a + int(rng.integers(1, 200))] = bool(rng.integers(0, 2))
    if "allzero" in case.name:
        zero[:] = True
    if n == 1:
        zero[:] = False
    vals[zero] = 0.0
    return {"x": vals.astype(np.float32)}
