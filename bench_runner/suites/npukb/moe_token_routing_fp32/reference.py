"""Golden model for moe_token_routing_fp32: stable sort of (token, slot) pairs by expert id."""

import numpy as np


def golden(inputs, attrs):
    x = inputs["x"]
    ids = inputs["expert_ids"].astype(np.int64)
    t, k = ids.shape
    e = int(attrs["num_experts"])
    flat = ids.ravel()
    order = np.argsort(flat, kind="stable")   # order[p] = source pair t * K + k
    row_idx = np.empty(t * k, dtype=np.int64)
    row_idx[order] = np.arange(t * k)
    return {
        "expanded_x": x[order // k],
        "expanded_row_idx": row_idx.astype(np.int32),
        "expert_counts": np.bincount(flat, minlength=e).astype(np.int32),
    }


def make_inputs(case, rng):
    # Every token picks K distinct experts with a skewed (Zipf-like) preference, so the counts
    # are uneven and some experts may get nothing.
    t, k, h, e = case.dims["T"], case.dims["K"], case.dims["H"], case.dims["E"]
    p = 1.0 / (np.arange(e) + 1.0) ** 0.8
    p = rng.permutation(p / p.sum())
    ids = np.stack([rng.choice(e, k, replace=False, p=p) for _ in range(t)])
    return {"x": rng.uniform(-1.0, 1.0, (t, h)).astype(np.float32), "expert_ids": ids.astype(np.int32)}
