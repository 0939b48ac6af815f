"""Golden model for quant_matmul_int8: int32 product of the int8 inputs, times the per-channel
float32 scale stored in the low 32 bits of deq_scale, in float64."""

import numpy as np


def _scale(deq):
    return (np.asarray(deq).astype(np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.float32).astype(np.float64)


def make_inputs(case, rng):
    m, k = case.shapes["x"]
    n = case.shapes["w"][0]
    x = rng.integers(-100, 101, (m, k)).astype(np.int8)
    w = rng.integers(-100, 101, (n, k)).astype(np.int8)
    scale = rng.uniform(1e-5, 1e-4, n).astype(np.float32)
    deq = scale.view(np.uint32).astype(np.int64)
    return {"x": x, "w": w, "deq_scale": deq}


def golden(inputs, attrs):
    acc = inputs["x"].astype(np.int64) @ inputs["w"].astype(np.int64).T
    return {"y": acc.astype(np.float64) * _scale(inputs["deq_scale"])[None, :]}
