"""High-level vector APIs against numpy: SoftMax (float; half data with float sum/max; rows padded
beyond oriSrcK; with and without a shared tmp buffer) and LayerNorm, with the host-side
temporary-size queries and tiling functions of tiling/tiling_api.h.

Why: public kernels call these library APIs; the emulator must give the documented results and
diagnose a too-small temporary buffer.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS


@pytest.fixture(scope="module")
def adv_f32(sim):
    return sim.build(KERNELS / "adv.cpp", args=4)


def params(op, m, k, ori_k, eps=1e-5):
    p = np.zeros(8, np.int32)
    p[:4] = [op, m, k, ori_k]
    p[4] = np.array([eps], np.float32).view(np.int32)[0]
    return p


def softmax_ref(x):
    mx = x.max(axis=-1, keepdims=True)
    e = np.exp(x - mx)
    return e / e.sum(axis=-1, keepdims=True), mx[:, 0], e.sum(axis=-1)


@pytest.mark.parametrize("op", [0, 1])
def test_softmax_float_with_stats(sim, adv_f32, op):
    m, k, ori = 6, 40, 37
    x = np.random.default_rng(op).uniform(-5, 5, (m, k)).astype(np.float32)
    stats = np.zeros(2 * m * 8, np.float32)
    run = sim.run(adv_f32, 1, [x, np.zeros_like(x), stats, params(op, m, k, ori)])
    assert run.returncode == 0, run.stderr
    want, mx, sm = softmax_ref(x[:, :ori].astype(np.float64))
    np.testing.assert_allclose(run.outputs[1][:, :ori], want, rtol=1e-5, atol=1e-7)
    s = run.outputs[2].reshape(2, m, 8)
    np.testing.assert_allclose(s[0], np.repeat(sm[:, None], 8, 1), rtol=1e-5)  # sum, one 32-byte block per row
    np.testing.assert_allclose(s[1], np.repeat(mx[:, None], 8, 1), rtol=1e-6)  # max
    assert [e for e in run.report["timeline"] if e["op"] == "SoftMax"][0]["pipe"] == "V"


def test_softmax_half_without_stats(sim):
    exe = sim.build(KERNELS / "adv.cpp", args=4, defines={"T": "half"})
    m, k = 5, 64
    x = np.random.default_rng(3).uniform(-4, 4, (m, k)).astype(np.float16)
    run = sim.run(exe, 1, [x, np.zeros_like(x), np.zeros(2 * m * 16, np.float16), params(2, m, k, k)])
    assert run.returncode == 0, run.stderr
    want, _, _ = softmax_ref(x.astype(np.float64))
    np.testing.assert_allclose(run.outputs[1].astype(np.float64), want, rtol=2e-3, atol=1e-3)


def test_layernorm(sim, adv_f32):
    m, k, ori = 4, 48, 45
    x = np.random.default_rng(4).uniform(-3, 3, (m, k)).astype(np.float32)
    run = sim.run(adv_f32, 1, [x, np.zeros_like(x), np.zeros(2 * m * 8, np.float32), params(3, m, k, ori, 1e-5)])
    assert run.returncode == 0, run.stderr
    xs = x[:, :ori].astype(np.float64)
    mean, var = xs.mean(-1), xs.var(-1)
    j = np.arange(ori)
    want = (xs - mean[:, None]) / np.sqrt(var[:, None] + 1e-5) * (1 + j / k) + j / k
    np.testing.assert_allclose(run.outputs[1][:, :ori], want, rtol=1e-4, atol=1e-5)
    s = run.outputs[2].reshape(2, m * 8)
    np.testing.assert_allclose(s[0][:m], mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s[1][:m], var, rtol=1e-5)


def test_softmax_tmp_buffer_too_small(sim):
    src = """#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, t;
    pipe.InitBuffer(a, 8 * 64 * 4); pipe.InitBuffer(b, 8 * 64 * 4); pipe.InitBuffer(t, 64);
    LocalTensor<float> la = a.Get<float>(), lb = b.Get<float>();
    Duplicate(la, 1.0f, 8 * 64);
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(ge::Shape({8, 64}), 4, 4096, tiling);
    SoftMax<float>(lb, la, t.Get<uint8_t>(), tiling);  /*HERE*/
}
"""
    exe = sim.build(src, args=2)
    run = sim.run(exe, 1, [np.zeros(8, np.float32), np.zeros(8, np.float32)])
    assert run.returncode == 3
    f = [x for x in run.report["findings"] if x["code"] == "LOCAL_OOB"]
    assert f and f[0]["api"] == "SoftMax" and "GetSoftMaxMinTmpSize" in f[0]["message"]
    line = next(i for i, ln in enumerate(src.splitlines(), 1) if "/*HERE*/" in ln)
    assert f[0]["line"] == line


def test_softmax_half_data_float_stats(sim):
    exe = sim.build(KERNELS / "adv.cpp", args=4, defines={"T": "half"})
    m, k = 3, 32
    x = np.random.default_rng(5).uniform(-4, 4, (m, k)).astype(np.float16)
    run = sim.run(exe, 1, [x, np.zeros_like(x), np.zeros(2 * m * 8, np.float32), params(0, m, k, k)])
    assert run.returncode == 0, run.stderr
    want, mx, sm = softmax_ref(x.astype(np.float64))
    np.testing.assert_allclose(run.outputs[1].astype(np.float64), want, rtol=2e-3, atol=1e-3)
    s = run.outputs[2].view(np.float32).reshape(2, m, 8)
    np.testing.assert_allclose(s[0][:, 0], sm, rtol=1e-5)
    np.testing.assert_allclose(s[1][:, 0], mx, rtol=1e-6)


@pytest.mark.parametrize("dtype,largest", [(np.float32, 1), (np.float16, 0)])
def test_topk(sim, adv_f32, dtype, largest):
    exe = adv_f32 if dtype == np.float32 else sim.build(KERNELS / "adv.cpp", args=4, defines={"T": "half"})
    m, inner, n, k = 3, 64, 50, 5
    rng = np.random.default_rng(largest)
    x = rng.integers(-20, 20, (m, inner)).astype(dtype)  # small integers: ties happen
    p = params(4, m, inner, n)
    p[5], p[6] = k, largest
    kv = -(-k * x.itemsize // 32) * 32 // x.itemsize
    ki = -(-k // 8) * 8
    run = sim.run(exe, 1, [x, np.zeros_like(x), np.zeros(m * 32, np.int32), p])
    assert run.returncode == 0, run.stderr
    vals = run.outputs[1].reshape(-1)[: m * kv].reshape(m, kv)[:, :k]
    idx = run.outputs[2][: m * ki].reshape(m, ki)[:, :k]
    for r in range(m):
        row = x[r, :n].astype(np.float64)
        order = np.argsort(-row if largest else row, kind="stable")[:k]  # ties: lower index first
        np.testing.assert_array_equal(idx[r], order)
        np.testing.assert_array_equal(vals[r].astype(np.float64), row[order])
