"""Golden model for kl_div_fp32 (float64): sum(target * (log(target) - input)) / M."""

import numpy as np


def golden(inputs, attrs):
    x, p = inputs["input"], inputs["target"]
    return {"loss": np.array([(p * (np.log(p) - x)).sum() / x.shape[0]])}


def _log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def make_inputs(case, rng):
    m, n = case.shapes["input"]
    # input: log-probabilities of one distribution; target: probabilities of another (all > 0).
    x = _log_softmax(rng.uniform(-3.0, 3.0, (m, n)))
    p = np.exp(_log_softmax(rng.uniform(-3.0, 3.0, (m, n))))
    return {"input": x.astype(np.float32), "target": p.astype(np.float32)}
