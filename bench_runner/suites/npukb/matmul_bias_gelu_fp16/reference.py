"""Golden model for matmul_bias_gelu_fp16: GELU (tanh approximation) of a @ b + bias, float64."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["a"] @ inputs["b"] + inputs["bias"][None, :]
    y = 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))
    return {"y": y}
