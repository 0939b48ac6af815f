"""Golden model for adamw_step_fp32: one torch.optim.AdamW step (amsgrad=False, maximize=False),
in float64. The float attributes are float32 scalars (what the host reads with GetFloat), so
they are rounded to float32 first: beta2^step amplifies beta2's rounding by `step`."""

import numpy as np


def golden(inputs, attrs):
    lr, b1, b2, eps, wd = (float(np.float32(attrs[k])) for k in ("lr", "beta1", "beta2", "eps", "weight_decay"))
    step = int(attrs["step"])
    p, g, m, v = inputs["param"], inputs["grad"], inputs["exp_avg"], inputs["exp_avg_sq"]
    p = p * (1.0 - lr * wd)
    m = b1 * m + (1.0 - b1) * g
    v = b2 * v + (1.0 - b2) * g * g
    bc1 = 1.0 - b1**step
    bc2 = 1.0 - b2**step
    denom = np.sqrt(v) / np.sqrt(bc2) + eps
    p = p - (lr / bc1) * m / denom
    return {"param_out": p, "exp_avg_out": m, "exp_avg_sq_out": v}


def make_inputs(case, rng):
    (n,) = case.shapes["param"]
    # |grad| in [0.02, 1]: with an exact-zero second moment the update is ~ exp_avg / |grad|,
    # and tiny gradients would make it arbitrarily ill-conditioned.
    g = rng.choice([-1.0, 1.0], n) * rng.uniform(0.02, 1.0, n)
    return {
        "param": rng.uniform(-1.0, 1.0, n).astype(np.float32),
        "grad": g.astype(np.float32),
        "exp_avg": rng.uniform(-0.1, 0.1, n).astype(np.float32),
        # Second moments are non-negative; a few exact zeros exercise eps.
        "exp_avg_sq": np.where(rng.random(n) < 0.02, 0.0, rng.uniform(0.0, 0.1, n)).astype(np.float32),
    }
