"""Golden model for leaky_relu_fp16 (float64, rounded to half by the evaluator)."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    return {"y": np.where(x >= 0.0, x, attrs["negative_slope"] * x)}
