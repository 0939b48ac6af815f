"""Golden model for nll_loss_fp32 (float64): -mean over the non-ignored rows of logp[m, target[m]]."""

import numpy as np


def golden(inputs, attrs):
    x, t = inputs["logp"], inputs["target"].astype(np.int64)
    keep = t != int(attrs["ignore_index"])
    picked = x[np.arange(x.shape[0]), np.where(keep, t, 0)]
    return {"loss": np.array([-picked[keep].sum() / keep.sum()])}


def make_inputs(case, rng):
    m, c = case.shapes["logp"]
    ignore = int(case.attributes["ignore_index"])
    z = rng.uniform(-4.0, 4.0, (m, c))
    z -= z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))  # real log-softmax rows
    t = rng.integers(0, c, size=m)
    t[rng.random(m) < 0.15] = ignore  # about 15 % ignored rows
    t[0] = 1 if ignore != 1 else 0    # at least one row counts
    return {"logp": logp.astype(np.float32), "target": t.astype(np.int32)}
