"""Golden model for rope_interleaved_fp32 (float64): each pair (x[2i], x[2i+1]) is multiplied,
as the complex number x[2i] + 1j * x[2i+1], by cos[i] + 1j * sin[i]."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    c = inputs["cos"][:, None, :]
    s = inputs["sin"][:, None, :]
    xe, xo = x[..., 0::2], x[..., 1::2]
    y = np.empty_like(x)
    y[..., 0::2] = xe * c - xo * s
    y[..., 1::2] = xo * c + xe * s
    return {"y": y}


def make_inputs(case, rng):
    t, h, d = case.shapes["x"]
    x = rng.uniform(-2.0, 2.0, (t, h, d)).astype(np.float32)
    pos = rng.integers(0, 4096) + np.arange(t, dtype=np.float64)
    inv = 1.0 / (10000.0 ** (np.arange(0, d, 2, dtype=np.float64) / d))
    ang = np.outer(pos, inv)
    return {"x": x, "cos": np.cos(ang).astype(np.float32), "sin": np.sin(ang).astype(np.float32)}
