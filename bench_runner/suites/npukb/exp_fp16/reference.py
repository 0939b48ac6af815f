"""Golden model for exp_fp16: y = exp(x) in float64."""

import numpy as np


def golden(inputs, attrs):
    return {"y": np.exp(inputs["x"])}
