"""Golden model for layer_norm_grad_fp32: the analytic gradient of LayerNorm (as autograd gives it), float64."""

import numpy as np


def golden(inputs, attrs):
    dy, x, gamma, eps = inputs["dy"], inputs["x"], inputs["gamma"], attrs["eps"]
    mu = x.mean(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    xhat = (x - mu) * rstd
    g = dy * gamma
    dx = rstd * (g - g.mean(axis=-1, keepdims=True) - xhat * (g * xhat).mean(axis=-1, keepdims=True))
    return {"dx": dx, "dgamma": (dy * xhat).sum(axis=0), "dbeta": dy.sum(axis=0)}
