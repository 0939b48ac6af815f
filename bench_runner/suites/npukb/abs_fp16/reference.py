"""Golden model for abs_fp16: y = |x|; inputs straddle zero and include exact zeros."""

import numpy as np


def make_inputs(case, rng):
    x = rng.uniform(-8.0, 8.0, case.shapes["x"])
    x[rng.random(x.shape) < 0.05] = 0.0
    return {"x": x.astype(np.float16)}


def golden(inputs, attrs):
    return {"y": np.abs(inputs["x"])}
