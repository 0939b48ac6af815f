"""Golden model for gelu_grad_fp32, in float64."""

import numpy as np


def golden(inputs, attrs):
    x, dy = inputs["x"], inputs["dy"]
    k, c = np.sqrt(2.0 / np.pi), 0.044715
    t = np.tanh(k * (x + c * x ** 3))
    d = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * c * x * x)
    return {"dx": dy * d}
