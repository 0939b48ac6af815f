"""Golden model for sin_fp32: float64 sin of the float32 inputs."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.uniform(-10.0 * np.pi, 10.0 * np.pi, shape)
    r = rng.random(shape)
    big = r < 0.03
    x[big] = rng.uniform(-1000.0, 1000.0, int(big.sum()))
    half_pi = (r >= 0.03) & (r < 0.05)
    x[half_pi] = rng.integers(-40, 41, int(half_pi.sum())) * (np.pi / 2.0)
    x[r > 0.99] = 0.0
    return {"x": x.astype(np.float32)}


def golden(inputs, attrs):
    return {"y": np.sin(inputs["x"])}
