"""Golden model for greater_fp32_to_bool; about 15% of the pairs are ties (a == b)."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["a"]
    a = rng.uniform(-2.0, 2.0, shape).astype(np.float32)
    b = rng.uniform(-2.0, 2.0, shape).astype(np.float32)
    tie = rng.random(shape) < 0.15
    b[tie] = a[tie]
    near = rng.random(shape) < 0.05
    b[near] = np.nextafter(a[near], np.float32(np.inf))   # a < b by one ulp
    return {"a": a, "b": b}


def golden(inputs, attrs):
    return {"y": inputs["a"] > inputs["b"]}
