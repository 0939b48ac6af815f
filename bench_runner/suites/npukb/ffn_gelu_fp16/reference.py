"""Golden model for ffn_gelu_fp16: gelu (tanh form) of x @ w1 + b1, rounded to half as the hidden
activation is stored, then times w2; float64 otherwise."""

import numpy as np


def make_inputs(case, rng):
    h, f = case.dims["H"], case.dims["F"]
    return {
        "x": rng.uniform(-1.0, 1.0, case.shapes["x"]).astype(np.float16),
        "w1": (rng.uniform(-1.0, 1.0, case.shapes["w1"]) / np.sqrt(h)).astype(np.float16),
        "b1": rng.uniform(-0.5, 0.5, case.shapes["b1"]).astype(np.float16),
        "w2": (rng.uniform(-1.0, 1.0, case.shapes["w2"]) / np.sqrt(f) * 4).astype(np.float16),
    }


def golden(inputs, attrs):
    a = inputs["x"] @ inputs["w1"] + inputs["b1"][None, :]
    g = 0.5 * a * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (a + 0.044715 * a**3)))
    g = g.astype(np.float16).astype(np.float64)  # the hidden activation is half
    return {"y": g @ inputs["w2"]}
