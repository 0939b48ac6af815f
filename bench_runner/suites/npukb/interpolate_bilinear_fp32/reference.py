"""Golden model for interpolate_bilinear_fp32: PyTorch's bilinear resize, in float64."""

import numpy as np


def _src(out_size, in_size, align_corners):
    i = np.arange(out_size, dtype=np.float64)
    if align_corners:
        scale = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
        src = i * scale
    else:
        src = np.maximum((i + 0.5) * (in_size / out_size) - 0.5, 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    i1 = np.minimum(i0 + 1, in_size - 1)
    return i0, i1, src - i0


def golden(inputs, attrs):
    x = inputs["x"]
    ac = bool(attrs["align_corners"])
    h0, h1, lh = _src(int(attrs["out_h"]), x.shape[2], ac)
    w0, w1, lw = _src(int(attrs["out_w"]), x.shape[3], ac)
    top = x[:, :, h0, :] * (1.0 - lh)[:, None] + x[:, :, h1, :] * lh[:, None]
    return {"y": top[:, :, :, w0] * (1.0 - lw) + top[:, :, :, w1] * lw}
