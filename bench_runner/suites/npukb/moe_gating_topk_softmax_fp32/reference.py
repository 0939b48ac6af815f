"""Golden model for moe_gating_topk_softmax_fp32: float64 softmax, stable top-k."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["logits"]
    k = int(attrs["k"])
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    # descending by probability, ties -> smaller expert id (stable sort of -p)
    ids = np.argsort(-p, axis=-1, kind="stable")[:, :k]
    w = np.take_along_axis(p, ids, axis=-1)
    if attrs["renormalize"]:
        w = w / w.sum(axis=-1, keepdims=True)
    return {"weights": w, "expert_ids": ids.astype(np.int32)}


def make_inputs(case, rng):
    # Distinct logits per row (a random permutation of an even grid plus jitter smaller than
    # the grid step), so the top-k order is unambiguous in float32 and no two probabilities tie.
    t, e = case.dims["T"], case.dims["E"]
    grid = np.linspace(-4.0, 4.0, e) if e > 1 else np.zeros(1)
    step = 8.0 / max(e - 1, 1)
    rows = np.stack([rng.permutation(grid) for _ in range(t)])
    rows += rng.uniform(-0.3 * step, 0.3 * step, rows.shape)
    return {"logits": rows.astype(np.float32)}
