"""Golden model for sqrt_fp32: y = sqrt(x), x >= 0 (including zeros and perfect squares)."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = np.power(10.0, rng.uniform(-6.0, 4.0, shape))
    r = rng.random(shape)
    x[r < 0.03] = 0.0
    sq = r > 0.98
    x[sq] = np.square(rng.integers(1, 100, int(sq.sum())).astype(np.float64))
    return {"x": x.astype(np.float32)}


def golden(inputs, attrs):
    return {"y": np.sqrt(inputs["x"])}
