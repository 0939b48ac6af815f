"""Golden model for adaptive_maxpool2d_fp16: max over the adaptive windows (exact in any precision)."""

import numpy as np


def _windows(length, out):
    # Output index i covers [floor(i * L / O), ceil((i + 1) * L / O)).
    return [(i * length // out, -(-(i + 1) * length // out)) for i in range(out)]


def golden(inputs, attrs):
    x = inputs["x"]
    oh, ow = int(attrs["output_h"]), int(attrs["output_w"])
    n, c, h, w = x.shape
    y = np.zeros((n, c, oh, ow))
    for i, (h0, h1) in enumerate(_windows(h, oh)):
        for j, (w0, w1) in enumerate(_windows(w, ow)):
            y[:, :, i, j] = x[:, :, h0:h1, w0:w1].max(axis=(2, 3))
    return {"y": y}
