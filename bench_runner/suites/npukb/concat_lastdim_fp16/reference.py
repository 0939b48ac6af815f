"""Golden model for concat_lastdim_fp16: numpy concatenate along the last axis."""

import numpy as np


def golden(inputs, attrs):
    return {"y": np.concatenate([inputs["a"], inputs["b"]], axis=-1)}
