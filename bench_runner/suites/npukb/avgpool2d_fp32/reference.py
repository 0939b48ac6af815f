"""Golden model for avgpool2d_fp32: float64 average pooling with a zero border."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    k, s, p = int(attrs["kernel_size"]), int(attrs["stride"]), int(attrs["padding"])
    n, c, h, w = x.shape
    oh = (h + 2 * p - k) // s + 1
    ow = (w + 2 * p - k) // s + 1
    xp = np.zeros((n, c, h + 2 * p, w + 2 * p))
    xp[:, :, p:p + h, p:p + w] = x
    ones = np.zeros((h + 2 * p, w + 2 * p))
    ones[p:p + h, p:p + w] = 1.0
    acc = np.zeros((n, c, oh, ow))
    cnt = np.zeros((oh, ow))
    for kh in range(k):
        for kw in range(k):
            acc += xp[:, :, kh:kh + s * (oh - 1) + 1:s, kw:kw + s * (ow - 1) + 1:s]
            cnt += ones[kh:kh + s * (oh - 1) + 1:s, kw:kw + s * (ow - 1) + 1:s]
    div = float(k * k) if attrs["count_include_pad"] else cnt
    return {"y": acc / div}
