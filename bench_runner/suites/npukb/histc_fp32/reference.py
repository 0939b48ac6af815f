"""Golden model for histc_fp32 (torch.histc semantics), in float64."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"].ravel()
    bins, lo, hi = int(attrs["bins"]), float(attrs["min"]), float(attrs["max"])
    x = x[(x >= lo) & (x <= hi)]
    b = np.floor((x - lo) * bins / (hi - lo)).astype(np.int64)
    b[b == bins] = bins - 1
    return {"y": np.bincount(b, minlength=bins).astype(np.float64)}


def make_inputs(case, rng):
    # Most values sit inside a bin, at least 10 % of a bin width away from its edges (so float32
    # and float64 agree on the bin); some lie outside [min, max] and some equal min or max exactly.
    a = case.attributes
    bins, lo, hi = int(a["bins"]), float(a["min"]), float(a["max"])
    n = case.dims["N"]
    width = (hi - lo) / bins
    x = lo + (rng.integers(0, bins, n) + rng.uniform(0.1, 0.9, n)) * width
    kind = rng.random(n)
    x = np.where(kind < 0.05, lo - rng.uniform(0.01, 1.0, n), x)
    x = np.where((kind >= 0.05) & (kind < 0.10), hi + rng.uniform(0.01, 1.0, n), x)
    x = np.where((kind >= 0.10) & (kind < 0.11), lo, x)
    x = np.where((kind >= 0.11) & (kind < 0.12), hi, x)
    return {"x": x.astype(np.float32)}
