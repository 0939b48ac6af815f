"""Golden model for dynamic_quant_int8, in the exact float32 arithmetic the spec prescribes
(int8 outputs are compared exactly, so the rounding steps are part of the contract):

    amax  = max_k |x[m, k]|                 (float32, exact)
    inv   = float32(127) / amax             (one float32 division)
    y     = rint(float32(x) * inv)          (one float32 multiply, round half to even)
    scale = amax / float32(127)             (one float32 division)
"""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"].astype(np.float32)  # float16 values, exact in float32
    amax = np.abs(x).max(axis=-1, keepdims=True)
    inv = np.float32(127.0) / amax
    y = np.clip(np.rint(x * inv), -127, 127).astype(np.int8)
    scale = (amax / np.float32(127.0)).reshape(-1)
    return {"y": y, "scale": scale.astype(np.float64)}


def make_inputs(case, rng):
    m, k = case.shapes["x"]
    x = rng.uniform(-4.0, 4.0, (m, k))
    # Per-row magnitudes that differ (activations do), and never an all-zero row.
    x *= rng.uniform(0.05, 4.0, (m, 1))
    x[np.abs(x).max(axis=-1) == 0.0, 0] = 1.0
    return {"x": x.astype(np.float16)}
