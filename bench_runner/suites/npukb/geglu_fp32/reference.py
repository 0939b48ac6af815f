"""Golden model for geglu_fp32, in float64: a = x[:, :H], b = x[:, H:]."""

import numpy as np


def golden(inputs, attrs):
    a, b = np.split(inputs["x"], 2, axis=-1)
    k, c = np.sqrt(2.0 / np.pi), 0.044715
    return {"y": 0.5 * a * (1.0 + np.tanh(k * (a + c * a ** 3))) * b}
