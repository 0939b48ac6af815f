"""Golden model for gelu_tanh_fp16: torch.nn.functional.gelu(x, approximate='tanh') in float64."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    u = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)
    return {"y": 0.5 * x * (1.0 + np.tanh(u))}
