"""Golden model for softmax_grad_fp32_rows (float64): dx = y * (dy - sum(dy * y, last dim))."""

import numpy as np


def golden(inputs, attrs):
    y = inputs["y"].astype(np.float64)
    dy = inputs["dy"].astype(np.float64)
    return {"dx": y * (dy - (dy * y).sum(axis=-1, keepdims=True))}


def make_inputs(case, rng):
    m, n = case.shapes["y"]
    # y: a genuine softmax output (rows of positive probabilities summing to 1) of logits in
    # [-3, 3]; dy: an upstream gradient in [-1, 3] (its weighted row mean is far from 0, so the
    # subtracted dot product matters).
    z = rng.uniform(-3.0, 3.0, (m, n))
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    y = e / e.sum(axis=-1, keepdims=True)
    dy = rng.uniform(-1.0, 3.0, (m, n))
    return {"y": y.astype(np.float32), "dy": dy.astype(np.float32)}
