"""Golden model for logical_and_bool."""

import numpy as np


def golden(inputs, attrs):
    return {"y": np.logical_and(inputs["a"] != 0, inputs["b"] != 0)}
