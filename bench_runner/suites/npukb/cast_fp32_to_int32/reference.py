"""Golden model for cast_fp32_to_int32: truncation toward zero."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.uniform(-100000.0, 100000.0, shape)
    r = rng.random(shape)
    k = rng.integers(-50, 51, shape).astype(np.float64)
    x = np.where(r < 0.1, k + rng.choice([-0.5, 0.5], shape), x)
    x = np.where((r >= 0.1) & (r < 0.15), k, x)
    x = np.where((r >= 0.15) & (r < 0.2), rng.uniform(-1.0, 1.0, shape), x)
    return {"x": x.astype(np.float32)}


def golden(inputs, attrs):
    return {"y": np.trunc(inputs["x"]).astype(np.int32)}
