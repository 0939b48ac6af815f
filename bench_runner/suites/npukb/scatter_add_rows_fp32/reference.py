"""Golden model for scatter_add_rows_fp32 (float64): y = x; y[idx[k]] += src[k] for every k
(np.add.at accumulates duplicates)."""

import numpy as np


def golden(inputs, attrs):
    y = inputs["x"].copy()
    np.add.at(y, inputs["idx"].astype(np.int64), inputs["src"])
    return {"y": y}


def make_inputs(case, rng):
    v, d = case.shapes["x"]
    (k,) = case.shapes["idx"]
    return {
        "x": rng.uniform(-1.0, 1.0, (v, d)).astype(np.float32),
        "idx": rng.integers(0, v, size=k).astype(np.int32),  # duplicates whenever K is large against V
        "src": rng.uniform(-1.0, 1.0, (k, d)).astype(np.float32),
    }
