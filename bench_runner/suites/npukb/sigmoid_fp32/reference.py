"""Golden model for sigmoid_fp32: y = 1 / (1 + exp(-x)) in float64."""

import numpy as np


def golden(inputs, attrs):
    return {"y": 1.0 / (1.0 + np.exp(-inputs["x"]))}
