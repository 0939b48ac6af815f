"""Golden model for batch_norm_train_fp32: batch statistics per channel over (N, HW), float64."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    mu = x.mean(axis=(0, 2))
    var = x.var(axis=(0, 2))          # biased, as used for the normalisation
    xhat = (x - mu[None, :, None]) / np.sqrt(var[None, :, None] + attrs["eps"])
    y = xhat * inputs["gamma"][None, :, None] + inputs["beta"][None, :, None]
    return {"y": y, "mean": mu, "var": var}
