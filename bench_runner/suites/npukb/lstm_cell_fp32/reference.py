"""Golden model for lstm_cell_fp32 (PyTorch gate order i, f, g, o), in float64."""

import numpy as np


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def golden(inputs, attrs):
    g = inputs["gates"]
    h = inputs["c"].shape[1]
    i, f, gg, o = (g[:, k * h:(k + 1) * h] for k in range(4))
    c_out = _sigmoid(f) * inputs["c"] + _sigmoid(i) * np.tanh(gg)
    return {"h_out": _sigmoid(o) * np.tanh(c_out), "c_out": c_out}
