"""Golden model for sort_fp32_lastdim: stable ascending sort along the last dim."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    idx = np.argsort(x, axis=-1, kind="stable")
    return {"values": np.take_along_axis(x, idx, axis=-1), "indices": idx.astype(np.int32)}


def make_inputs(case, rng):
    # *_ties cases: values on a 1/16 grid in [-4, 4] (129 levels), so rows hold many equal values
    # and stability decides the indices; other cases: continuous uniform values.
    shape = case.shapes["x"]
    if "ties" in case.name:
        x = rng.integers(-64, 65, shape) / 16.0
    else:
        x = rng.uniform(-4.0, 4.0, shape)
    return {"x": x.astype(np.float32)}
