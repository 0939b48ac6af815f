"""Golden model for gather_rows_fp32: x[idx] (index_select on dim 0)."""

import numpy as np


def golden(inputs, attrs):
    return {"y": inputs["x"][inputs["idx"].astype(np.int64)]}


def make_inputs(case, rng):
    v, d = case.shapes["x"]
    (k,) = case.shapes["idx"]
    x = rng.uniform(-4.0, 4.0, (v, d)).astype(np.float32)
    # Uniform over the whole table, so duplicates appear whenever K is large against V.
    idx = rng.integers(0, v, size=k, dtype=np.int64).astype(np.int32)
    return {"x": x, "idx": idx}
