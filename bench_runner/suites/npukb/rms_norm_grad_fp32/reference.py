"""Golden model for rms_norm_grad_fp32: the analytic gradient of RMSNorm (as autograd gives it), float64."""

import numpy as np


def golden(inputs, attrs):
    dy, x, gamma, eps = inputs["dy"], inputs["x"], inputs["gamma"], attrs["eps"]
    rstd = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)
    xhat = x * rstd
    g = dy * gamma
    dx = rstd * (g - xhat * (g * xhat).mean(axis=-1, keepdims=True))
    return {"dx": dx, "dgamma": (dy * xhat).sum(axis=0)}
