"""Golden model for lerp_fp32: torch.lerp(start, end, weight) in float64."""

import numpy as np


def golden(inputs, attrs):
    s, e, w = inputs["start"], inputs["end"], inputs["weight"]
    return {"out": np.where(w < 0.5, s + w * (e - s), e - (e - s) * (1.0 - w))}
