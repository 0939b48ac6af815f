"""Golden model for embedding_backward_fp32 (float64): grad_weight[v] = sum of grad_out[k] over
the tokens k with ids[k] == v, and 0 for v == padding_idx."""

import numpy as np


def golden(inputs, attrs):
    g, ids = inputs["grad_out"], inputs["ids"].astype(np.int64)
    w = np.zeros((int(attrs["num_weights"]), g.shape[1]))
    np.add.at(w, ids, g)
    pad = int(attrs["padding_idx"])
    if pad >= 0:
        w[pad] = 0.0
    return {"grad_weight": w}


def make_inputs(case, rng):
    k, d = case.shapes["grad_out"]
    v = int(case.attributes["num_weights"])
    ids = rng.integers(0, v, size=k)
    pad = int(case.attributes["padding_idx"])
    if pad >= 0:
        ids[rng.random(k) < 0.1] = pad  # padding tokens present, their gradient is dropped
    return {"grad_out": rng.uniform(-1.0, 1.0, (k, d)).astype(np.float32), "ids": ids.astype(np.int32)}
