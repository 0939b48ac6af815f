"""Golden model for cast_bf16_to_fp32: exact widening over float32's exponent range."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    x = rng.choice([-1.0, 1.0], shape) * np.power(10.0, rng.uniform(-30.0, 30.0, shape))
    x[rng.random(shape) < 0.03] = 0.0
    return {"x": x}  # float64, rounded to bfloat16 by the evaluator


def golden(inputs, attrs):
    return {"y": inputs["x"]}
