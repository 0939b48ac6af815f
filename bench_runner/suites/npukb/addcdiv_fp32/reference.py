"""Golden model for addcdiv_fp32: torch.addcdiv in float64; |t2| in [0.25, 2]."""

import numpy as np


def make_inputs(case, rng):
    shape = case.shapes["x"]
    t2 = rng.uniform(0.25, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
    return {"x": rng.uniform(-4.0, 4.0, shape).astype(np.float32),
            "t1": rng.uniform(-3.0, 3.0, shape).astype(np.float32),
            "t2": t2.astype(np.float32)}


def golden(inputs, attrs):
    return {"out": inputs["x"] + attrs["value"] * inputs["t1"] / inputs["t2"]}
