"""Golden model for masked_fill_fp32: y = where(mask, value, x)."""

import numpy as np


def golden(inputs, attrs):
    return {"y": np.where(inputs["mask"].astype(bool), float(attrs["value"]), inputs["x"])}


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.uniform(-4.0, 4.0, shape).astype(np.float32)
    # About 30 % of the elements masked; the 1-element case is masked so it tests the fill.
    mask = rng.random(shape) < 0.3
    if mask.size == 1:
        mask[...] = True
    return {"x": x, "mask": mask}
