"""Golden model for repeat_rows_fp16: x.repeat(repeats, 1) for a [1, N] row (repeats == M)."""

import numpy as np


def golden(inputs, attrs):
    return {"y": np.repeat(inputs["x"], int(attrs["repeats"]), axis=0)}
