"""Golden model for reciprocal_fp32: y = 1 / x with |x| in [1e-3, 1e3]."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.choice([-1.0, 1.0], shape) * np.power(10.0, rng.uniform(-3.0, 3.0, shape))
    p = rng.random(shape) < 0.02
    x[p] = np.exp2(rng.integers(-9, 10, int(p.sum())).astype(np.float64))
    return {"x": x.astype(np.float32)}


def golden(inputs, attrs):
    return {"y": 1.0 / inputs["x"]}
