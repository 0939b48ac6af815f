"""Golden model for relu_fp32_dynamic; inputs straddle zero and include exact zeros."""

import numpy as np


def make_inputs(case, rng):
    x = rng.uniform(-2.0, 2.0, case.shapes["x"])
    x[rng.random(x.shape) < 0.05] = 0.0
    return {"x": x.astype(np.float32)}


def golden(inputs, attrs):
    return {"y": np.maximum(inputs["x"], 0.0)}
