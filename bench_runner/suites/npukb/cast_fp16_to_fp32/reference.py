"""Golden model for cast_fp16_to_fp32: exact widening; inputs span subnormals to 65504."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    mag = np.exp2(rng.uniform(-24.0, 15.99, shape))
    x = (mag * rng.choice([-1.0, 1.0], shape)).astype(np.float16)
    r = rng.random(shape)
    x[r < 0.03] = 0.0
    x[(r >= 0.03) & (r < 0.04)] = np.float16(65504.0) * np.sign(rng.uniform(-1, 1, int(((r >= 0.03) & (r < 0.04)).sum())))
    return {"x": x}


def golden(inputs, attrs):
    return {"y": inputs["x"]}
