"""Golden model for rsqrt_fp16: y = 1 / sqrt(x), x > 0."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = np.power(10.0, rng.uniform(-2.0, 4.0, shape))
    p = rng.random(shape) < 0.02
    x[p] = np.power(4.0, rng.integers(-3, 7, int(p.sum())).astype(np.float64))
    return {"x": x.astype(np.float16)}


def golden(inputs, attrs):
    return {"y": 1.0 / np.sqrt(inputs["x"])}
