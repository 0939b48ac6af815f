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
    x, w = inputs["x"], inputs["w"]
    # The int32 product, computed in float64 (BLAS; numpy's integer matmul is a plain loop, minutes
    # at 4096^3): every product and partial sum is an integer below 2^53, so the sum is exact.
    bound = int(np.abs(x.astype(np.int64)).max(initial=0)) * int(np.abs(w.astype(np.int64)).max(initial=0)) * x.shape[1]
    assert bound < 2**53, "int8 sums this long are not exact in float64"
    acc = x.astype(np.float64) @ w.astype(np.float64).T
    return {"y": acc * _scale(inputs["deq_scale"])[None, :]}
