"""Golden model for isfinite_fp16; inputs mix ordinary, extreme, subnormal and non-finite halves."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.uniform(-100.0, 100.0, shape)
    kind = rng.random(shape)
    x[kind < 0.06] = np.nan
    x[(kind >= 0.06) & (kind < 0.12)] = np.inf
    x[(kind >= 0.12) & (kind < 0.18)] = -np.inf
    x[(kind >= 0.18) & (kind < 0.21)] = 65504.0
    x[(kind >= 0.21) & (kind < 0.24)] = -65504.0
    x[(kind >= 0.24) & (kind < 0.27)] = 6e-8          # smallest subnormal
    x[(kind >= 0.27) & (kind < 0.29)] = 0.0
    if x.size == 1:
        x[0] = np.inf if rng.random() < 0.5 else np.nan   # the 1-element case is non-finite
    return {"x": x.astype(np.float16)}


def golden(inputs, attrs):
    return {"y": np.isfinite(inputs["x"])}
