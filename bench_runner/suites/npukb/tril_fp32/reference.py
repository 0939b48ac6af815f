"""Golden model for tril_fp32: numpy's tril with the diagonal offset (same as torch.tril)."""

import numpy as np


def golden(inputs, attrs):
    return {"y": np.tril(inputs["x"], k=int(attrs["diagonal"]))}
