"""Golden model for conv2d_img2col_fp16: valid (no padding), stride-1 cross-correlation, float64."""

import numpy as np


def golden(inputs, attrs):
    x, w = inputs["x"], inputs["w"]
    n, c, h, wd = x.shape
    co, _, kh, kw = w.shape
    ho, wo = h - kh + 1, wd - kw + 1
    y = np.zeros((n, co, ho, wo))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + ho, j:j + wo]  # n, c, ho, wo
            y += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return {"y": y}
