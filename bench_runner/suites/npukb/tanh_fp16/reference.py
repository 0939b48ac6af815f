"""Golden model for tanh_fp16: y = tanh(x); includes saturating and tiny inputs."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.uniform(-5.0, 5.0, shape)
    r = rng.random(shape)
    big = r < 0.02
    x[big] = rng.choice([-1.0, 1.0], int(big.sum())) * rng.uniform(10.0, 60000.0, int(big.sum()))
    tiny = (r >= 0.02) & (r < 0.05)
    x[tiny] = rng.uniform(-1e-3, 1e-3, int(tiny.sum()))
    return {"x": x.astype(np.float16)}


def golden(inputs, attrs):
    return {"y": np.tanh(inputs["x"])}
