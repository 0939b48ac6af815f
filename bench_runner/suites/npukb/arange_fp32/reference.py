"""Golden model for arange_fp32 (float64); x is random and only gives the length."""

import numpy as np


def golden(inputs, attrs):
    n = inputs["x"].shape[0]
    return {"y": attrs["start"] + np.arange(n, dtype=np.float64) * attrs["step"]}
