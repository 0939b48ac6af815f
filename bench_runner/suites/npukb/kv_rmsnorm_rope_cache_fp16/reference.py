"""Golden model for kv_rmsnorm_rope_cache_fp16: RMSNorm + rotate-half RoPE in float64, then a
scatter of k and v into the caches at the slot indices (negative slots are skipped)."""

import numpy as np


def golden(inputs, attrs):
    k, v = inputs["k"], inputs["v"]
    eps = float(attrs["epsilon"])
    d = k.shape[-1]
    h = d // 2
    kn = k / np.sqrt(np.mean(k * k, axis=-1, keepdims=True) + eps) * inputs["gamma"]
    cos = inputs["cos"][:, None, :]
    sin = inputs["sin"][:, None, :]
    rot = np.concatenate([-kn[..., h:], kn[..., :h]], axis=-1)
    kr = kn * cos + rot * sin
    k_cache = inputs["k_cache"].copy()
    v_cache = inputs["v_cache"].copy()
    for t, s in enumerate(inputs["slot_mapping"].astype(np.int64)):
        if s >= 0:
            k_cache[s] = kr[t]
            v_cache[s] = v[t]
    return {"k_cache_out": k_cache, "v_cache_out": v_cache}


def make_inputs(case, rng):
    t, nh, d, s = case.dims["T"], case.dims["NH"], case.dims["D"], case.dims["S"]
    h = d // 2
    # Real rotary tables: positions in [0, 4096), inv_freq = 10000^(-2i/D), halves duplicated.
    pos = rng.integers(0, 4096, t).astype(np.float64)
    inv_freq = 10000.0 ** (-np.arange(h) * 2.0 / d)
    ang = pos[:, None] * inv_freq[None, :]
    ang = np.concatenate([ang, ang], axis=1)
    # Distinct slots; about one token in eight is padding (slot -1) when there are several.
    slots = rng.permutation(s)[:t].astype(np.int32)
    if t > 1:
        slots[rng.random(t) < 0.125] = -1
    return {
        "k": rng.uniform(-2.0, 2.0, (t, nh, d)).astype(np.float16),
        "v": rng.uniform(-2.0, 2.0, (t, nh, d)).astype(np.float16),
        "gamma": rng.uniform(0.5, 1.5, d).astype(np.float16),
        "cos": np.cos(ang).astype(np.float16),
        "sin": np.sin(ang).astype(np.float16),
        "slot_mapping": slots,
        "k_cache": rng.uniform(-1.0, 1.0, (s, nh, d)).astype(np.float16),
        "v_cache": rng.uniform(-1.0, 1.0, (s, nh, d)).astype(np.float16),
    }
