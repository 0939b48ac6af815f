"""Golden model for iou_boxes_fp32: pairwise IoU in float64."""

import numpy as np


def golden(inputs, attrs):
    a = inputs["boxes1"][:, None, :]
    b = inputs["boxes2"][None, :, :]
    w = np.maximum(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), 0.0)
    h = np.maximum(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), 0.0)
    inter = w * h
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    return {"y": inter / (area_a + area_b - inter)}


def _boxes(rng, count):
    xy = rng.uniform(0.0, 100.0, (count, 2))
    wh = rng.uniform(1.0, 30.0, (count, 2))
    return np.concatenate([xy, xy + wh], axis=1).astype(np.float32)


def make_inputs(case, rng):
    # Valid boxes (x2 > x1, y2 > y1, sides 1..30) in a 130 x 130 field: many pairs overlap
    # partly, many not at all, so both the clipping at zero and the ratio are exercised.
    return {"boxes1": _boxes(rng, case.dims["N"]), "boxes2": _boxes(rng, case.dims["M"])}
