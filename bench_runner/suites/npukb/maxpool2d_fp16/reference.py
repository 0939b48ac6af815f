"""Golden model for maxpool2d_fp16: float64 max pooling with an implicit -inf border."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    k, s, p = int(attrs["kernel_size"]), int(attrs["stride"]), int(attrs["padding"])
    n, c, h, w = x.shape
    oh = (h + 2 * p - k) // s + 1
    ow = (w + 2 * p - k) // s + 1
    xp = np.full((n, c, h + 2 * p, w + 2 * p), -np.inf)
    xp[:, :, p:p + h, p:p + w] = x
    y = np.full((n, c, oh, ow), -np.inf)
    for kh in range(k):
        for kw in range(k):
            y = np.maximum(y, xp[:, :, kh:kh + s * (oh - 1) + 1:s, kw:kw + s * (ow - 1) + 1:s])
    return {"y": y}
