"""Golden model for topk_smallest_fp16: stable ascending selection along the last dim."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    k = int(attrs["k"])
    idx = np.argsort(x, axis=-1, kind="stable")[:, :k]   # ties -> smaller index first
    return {"values": np.take_along_axis(x, idx, axis=-1), "indices": idx.astype(np.int32)}


def make_inputs(case, rng):
    # *_ties cases: values on a 1/64 grid in [-4, 4] (513 levels), so rows hold many equal
    # values and the tie rule decides the indices; other cases: uniform values (rounded to float16, so some ties occur anyway).
    shape = case.shapes["x"]
    if "ties" in case.name:
        x = rng.integers(-256, 257, shape) / 64.0
    else:
        x = rng.uniform(-4.0, 4.0, shape)
    return {"x": x.astype(np.float16)}
