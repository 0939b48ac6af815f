"""Golden model for realdiv_fp32: z = x / y with |y| in [0.25, 4]."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.uniform(-4.0, 4.0, shape)
    y = rng.uniform(0.25, 4.0, shape) * rng.choice([-1.0, 1.0], shape)
    return {"x": x.astype(np.float32), "y": y.astype(np.float32)}


def golden(inputs, attrs):
    return {"z": inputs["x"] / inputs["y"]}
