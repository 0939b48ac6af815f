"""Golden model for clamp_fp32: y = min(max(x, min_val), max_val)."""

import numpy as np


def make_inputs(case, rng):
    hi = 1.0 if case.dims["N"] == 1 else 4.0
    return {"x": rng.uniform(-hi, hi, case.shapes["x"]).astype(np.float32)}


def golden(inputs, attrs):
    lo, hi = float(attrs["min_val"]), float(attrs["max_val"])
    return {"y": np.minimum(np.maximum(inputs["x"], lo), hi)}
