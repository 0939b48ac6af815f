"""Golden model for log_fp32: y = ln(x) for x > 0."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = np.power(10.0, rng.uniform(-4.0, 4.0, shape))
    r = rng.random(shape)
    x = np.where(r < 0.05, rng.uniform(0.9, 1.1, shape), x)
    x[r > 0.99] = 1.0
    return {"x": x.astype(np.float32)}


def golden(inputs, attrs):
    return {"y": np.log(inputs["x"])}
