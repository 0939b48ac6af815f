"""Golden model for rope_rotate_half_fp16 (float64):
y = x * cos + rotate_half(x) * sin, rotate_half(x) = cat(-x[..., D/2:], x[..., :D/2])."""

import numpy as np


def golden(inputs, attrs):
    x, cos, sin = inputs["x"], inputs["cos"][:, None, :], inputs["sin"][:, None, :]
    half = x.shape[-1] // 2
    rot = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return {"y": x * cos + rot * sin}


def make_inputs(case, rng):
    t, h, d = case.shapes["x"]
    x = rng.uniform(-2.0, 2.0, (t, h, d)).astype(np.float16)
    # Real rotary tables: random start position, base 10000, frequencies repeated for both halves.
    pos = rng.integers(0, 4096) + np.arange(t, dtype=np.float64)
    inv = 1.0 / (10000.0 ** (np.arange(0, d, 2, dtype=np.float64) / d))
    ang = np.outer(pos, inv)
    ang = np.concatenate([ang, ang], axis=-1)
    return {"x": x, "cos": np.cos(ang).astype(np.float16), "sin": np.sin(ang).astype(np.float16)}
