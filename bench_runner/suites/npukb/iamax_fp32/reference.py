"""Golden model for iamax_fp32: first index of the largest |x| (0-based), with planted ties."""

import numpy as np


def make_inputs(case, rng):
    n = case.shapes["x"][0]
    x = rng.uniform(-1.0, 1.0, n)
    k = min(n, 4)
    pos = rng.choice(n, size=k, replace=False)              # the same largest |x| at k places,
    x[pos] = 1.5 * rng.choice([-1.0, 1.0], size=k)          # with either sign
    return {"x": x.astype(np.float32)}


def golden(inputs, attrs):
    return {"idx": np.array([np.argmax(np.abs(inputs["x"]))], dtype=np.int32)}
