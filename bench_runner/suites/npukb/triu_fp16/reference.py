"""Golden model for triu_fp16: numpy's triu with the diagonal offset (same as torch.triu)."""

import numpy as np


def golden(inputs, attrs):
    return {"y": np.triu(inputs["x"], k=int(attrs["diagonal"]))}
