"""Golden model for pad_2d_fp32: numpy's constant pad (same as torch.nn.functional.pad)."""

import numpy as np


def golden(inputs, attrs):
    pads = ((int(attrs["pad_top"]), int(attrs["pad_bottom"])), (int(attrs["pad_left"]), int(attrs["pad_right"])))
    return {"y": np.pad(inputs["x"], pads, mode="constant", constant_values=float(attrs["value"]))}
