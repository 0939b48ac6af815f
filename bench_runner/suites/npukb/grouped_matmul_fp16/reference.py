"""Golden model for grouped_matmul_fp16: rows [end[g-1], end[g]) of x times w[g], float64.
group_list holds the cumulative row counts (the last equals M); some groups may be empty."""

import numpy as np


def make_inputs(case, rng):
    g, m = case.dims["G"], case.dims["M"]
    x = rng.uniform(-1.0, 1.0, case.shapes["x"]).astype(np.float16)
    w = rng.uniform(-1.0, 1.0, case.shapes["w"]).astype(np.float16)
    cuts = np.sort(rng.integers(0, m + 1, g - 1))
    if g > 2:
        cuts[1] = cuts[0]  # an empty group
    ends = np.concatenate([cuts, [m]]).astype(np.int64)
    return {"x": x, "w": w, "group_list": ends}


def golden(inputs, attrs):
    x, w, ends = inputs["x"], inputs["w"], np.asarray(inputs["group_list"]).astype(np.int64)
    y = np.zeros((x.shape[0], w.shape[2]))
    start = 0
    for g, end in enumerate(ends):
        y[start:end] = x[start:end] @ w[g]
        start = end
    return {"y": y}
