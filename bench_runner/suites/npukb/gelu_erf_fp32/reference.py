"""Golden model for gelu_erf_fp32: torch.nn.functional.gelu(x, approximate='none') in float64."""

import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])


def golden(inputs, attrs):
    x = inputs["x"]
    return {"y": 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))}
