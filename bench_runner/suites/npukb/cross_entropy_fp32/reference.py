"""Golden model for cross_entropy_fp32 (float64): mean over the non-ignored rows of
logsumexp(logits[m]) - logits[m, target[m]]."""

import numpy as np


def golden(inputs, attrs):
    x, t = inputs["logits"], inputs["target"].astype(np.int64)
    keep = t != int(attrs["ignore_index"])
    mx = x.max(axis=-1)
    lse = mx + np.log(np.exp(x - mx[:, None]).sum(axis=-1))
    picked = x[np.arange(x.shape[0]), np.where(keep, t, 0)]
    return {"loss": np.array([(lse - picked)[keep].sum() / keep.sum()])}


def make_inputs(case, rng):
    m, c = case.shapes["logits"]
    ignore = int(case.attributes["ignore_index"])
    x = rng.uniform(-4.0, 4.0, (m, c)).astype(np.float32)
    t = rng.integers(0, c, size=m)
    t[rng.random(m) < 0.15] = ignore  # about 15 % ignored rows
    if ignore >= 0:
        t[t == ignore] = ignore       # (a valid class used as ignore_index: those rows are ignored too)
    t[0] = 1 if ignore != 1 else 0    # at least one row counts
    return {"logits": x, "target": t.astype(np.int32)}
