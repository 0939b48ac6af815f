"""Golden model for elu_fp32: torch.nn.functional.elu in float64 (expm1 for accuracy)."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    return {"y": np.where(x > 0.0, x, attrs["alpha"] * np.expm1(np.minimum(x, 0.0)))}
