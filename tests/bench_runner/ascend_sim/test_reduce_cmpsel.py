"""Reductions, comparisons, selection and gather against numpy.

Why: reductions have hardware-specific output layouts (value/index pairs, one result per block,
saturating half sums) and Compare/Select work on packed bit masks; both are easy to get subtly
wrong and both are common in softmax/normalisation kernels.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS

CAP_R = 4096
DT = {"half": np.float16, "float": np.float32}


@pytest.fixture(scope="module", params=["half", "float"])
def red(request, sim):
    exe = sim.build(KERNELS / "reduce.cpp", args=3, defines={"DTYPE": request.param})
    return request.param, DT[request.param], exe


def rparams(op, n=0, mask=0, repeat=0, dst_rep=1, src_blk=1, src_rep=8, order=0, bits=(0, 0)):
    p = np.zeros(16, np.int32)
    p[:8] = [op, n, mask, repeat, dst_rep, src_blk, src_rep, order]
    lo, hi = bits
    p[8:12] = np.array([lo & 0xFFFFFFFF, lo >> 32, hi & 0xFFFFFFFF, hi >> 32], np.uint32).view(
        np.int32
    )
    return p


def go(sim, exe, x, p, t):
    run = sim.run(exe, 1, [x, np.zeros(CAP_R, t), p])
    assert run.returncode == 0, run.stderr
    return run.outputs[1]


def idx_of(v, t):
    """An index stored in a T slot: the bits of an integer (uint16 for half, uint32 for float)."""
    return int(np.array([v], t).view(np.uint16 if t == np.float16 else np.uint32)[0])


def test_reduce_level2(sim, red):
    dtype, t, exe = red
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, CAP_R).astype(t)
    n = 3000
    out = go(sim, exe, x, rparams(0, n), t)
    np.testing.assert_allclose(
        float(out[0]), float(x[:n].astype(np.float64).sum()), atol=0.05 if dtype == "half" else 1e-4
    )
    out = go(sim, exe, x, rparams(1, n), t)
    assert out[0] == x[:n].max() and idx_of(out[1], t) == int(np.argmax(x[:n]))
    out = go(sim, exe, x, rparams(2, n), t)
    assert out[0] == x[:n].min() and idx_of(out[1], t) == int(np.argmin(x[:n]))


def test_reduce_level0(sim, red):
    dtype, t, exe = red
    epr = 256 // np.dtype(t).itemsize
    rng = np.random.default_rng(6)
    x = rng.uniform(-1, 1, CAP_R).astype(t)
    # mask 20 lanes, 5 repeats, repeat stride 16 blocks: repeat r starts at element r*16*epb
    epb = 32 // np.dtype(t).itemsize
    sel = np.concatenate([x[r * 16 * epb : r * 16 * epb + 20] for r in range(5)])
    out = go(sim, exe, x, rparams(3, mask=20, repeat=5, src_rep=16), t)
    np.testing.assert_allclose(
        float(out[0]), float(sel.astype(np.float64).sum()), atol=0.02 if dtype == "half" else 1e-5
    )
    out = go(sim, exe, x, rparams(4, mask=20, repeat=5, src_rep=16), t)
    pos = int(np.argmax(sel))
    assert out[0] == sel.max()
    assert idx_of(out[1], t) == (pos // 20) * epr + pos % 20
    out = go(sim, exe, x, rparams(13, repeat=2, src_rep=8, bits=(0b1011, 0)), t)
    cand = [x[0], x[1], x[3], x[epr], x[epr + 1], x[epr + 3]]
    assert out[0] == min(cand)


def test_whole_reduce(sim, red):
    dtype, t, exe = red
    epr = 256 // np.dtype(t).itemsize
    rng = np.random.default_rng(8)
    x = rng.uniform(-2, 2, CAP_R).astype(t)
    out = go(sim, exe, x, rparams(5, mask=epr, repeat=6, dst_rep=1), t)
    want = x[: 6 * epr].reshape(6, epr).astype(np.float64).sum(axis=1)
    np.testing.assert_allclose(
        out[:6].astype(np.float64), want, atol=0.02 if dtype == "half" else 1e-5
    )
    assert not out[6:].any()
    # value/index pairs, dstRepStride in pairs
    out = go(sim, exe, x, rparams(6, mask=epr, repeat=4, dst_rep=1, order=0), t)
    rows = x[: 4 * epr].reshape(4, epr)
    for r in range(4):
        assert out[2 * r] == rows[r].max() and idx_of(out[2 * r + 1], t) == int(np.argmax(rows[r]))
    out = go(sim, exe, x, rparams(7, mask=epr // 2, repeat=3, dst_rep=1, order=1), t)
    rows = x[: 3 * epr].reshape(3, epr)[:, : epr // 2]
    for r in range(3):
        assert idx_of(out[2 * r], t) == int(np.argmin(rows[r])) and out[2 * r + 1] == rows[r].min()
    out = go(sim, exe, x, rparams(12, repeat=2, dst_rep=2, bits=(0xFF, 0)), t)
    np.testing.assert_allclose(float(out[0]), float(x[:8].astype(np.float64).sum()), atol=0.01)
    np.testing.assert_allclose(
        float(out[2]), float(x[epr : epr + 8].astype(np.float64).sum()), atol=0.01
    )


def test_block_and_pair_reduce(sim, red):
    dtype, t, exe = red
    epr = 256 // np.dtype(t).itemsize
    epb = epr // 8
    rng = np.random.default_rng(9)
    x = rng.uniform(-2, 2, CAP_R).astype(t)
    out = go(sim, exe, x, rparams(8, mask=epr, repeat=3, dst_rep=1), t)
    np.testing.assert_allclose(
        out[:24].astype(np.float64),
        x[: 3 * epr].reshape(24, epb).astype(np.float64).sum(1),
        atol=0.01 if dtype == "half" else 1e-5,
    )
    out = go(sim, exe, x, rparams(9, mask=epr, repeat=2, dst_rep=1), t)
    np.testing.assert_array_equal(out[:16], x[: 2 * epr].reshape(16, epb).max(1))
    out = go(sim, exe, x, rparams(10, mask=epr, repeat=2, dst_rep=1), t)
    np.testing.assert_array_equal(out[:16], x[: 2 * epr].reshape(16, epb).min(1))
    out = go(sim, exe, x, rparams(11, mask=epr, repeat=2, dst_rep=1), t)
    want = (x[: 2 * epr].reshape(-1, 2).astype(np.float32).sum(1)).astype(t)
    np.testing.assert_array_equal(out[:epr], want)


def test_half_block_reduce_saturation(sim):
    """The BlockReduceSum docs' example: [60000, 60000, -30000, 100] -> 65504 - 29900 = 35604.

    The pairwise tree saturates 60000 + 60000 at 65504 instead of overflowing to inf; each
    partial sum is a half, so the exact 35604 rounds: -29900 -> -29904, 65504 - 29904 = 35600,
    a tie that rounds to even, 35584.
    """
    exe = sim.build(KERNELS / "reduce.cpp", args=3, defines={"DTYPE": "half"})
    x = np.zeros(CAP_R, np.float16)
    x[:4] = [60000, 60000, -30000, 100]
    out = go(sim, exe, x, rparams(8, mask=128, repeat=1, dst_rep=1), np.float16)
    h = np.float16
    assert float(out[0]) == float(h(h(65504) + h(h(-30000) + h(100)))) == 35584.0


# ---------------------------------------------------------------- compare / select / gather
CAP_C = 2048
MODES = {
    0: np.less,
    1: np.greater,
    2: np.equal,
    3: np.less_equal,
    4: np.greater_equal,
    5: np.not_equal,
}


@pytest.fixture(scope="module", params=["half", "float"])
def cs(request, sim):
    exe = sim.build(KERNELS / "cmpsel.cpp", args=5, defines={"DTYPE": request.param})
    return request.param, DT[request.param], exe


def cparams(op, n=0, cmp=0, sel=0, scalar=0.0, mask=0, repeat=0, base=0):
    p = np.zeros(16, np.int32)
    p[:8] = [op, n, cmp, sel, np.float32(scalar).view(np.int32), mask, repeat, base]
    return p


def crun(sim, exe, t, p, x, y, m, z0=None):
    z0 = np.zeros(CAP_C, t) if z0 is None else z0
    run = sim.run(exe, 1, [x, y, m, z0, p])
    assert run.returncode == 0, run.stderr
    return run


def packbits(b):
    return np.packbits(b.astype(np.uint8), bitorder="little")


@pytest.mark.parametrize("cmp", sorted(MODES))
def test_compare(sim, cs, cmp):
    dtype, t, exe = cs
    rng = np.random.default_rng(cmp)
    x = rng.integers(-3, 3, CAP_C).astype(t)
    y = rng.integers(-3, 3, CAP_C).astype(t)
    m = np.zeros(CAP_C * 4, np.uint8)
    n = 1024  # a multiple of 256 bytes for both dtypes
    run = crun(sim, exe, t, cparams(0, n, cmp), x, y, m)
    got = run.outputs[3].view(np.uint8)[: n // 8]
    np.testing.assert_array_equal(got, packbits(MODES[cmp](x[:n], y[:n])))
    run = crun(sim, exe, t, cparams(1, n, cmp, scalar=1.0), x, y, m)
    np.testing.assert_array_equal(
        run.outputs[3].view(np.uint8)[: n // 8], packbits(MODES[cmp](x[:n], t(1)))
    )
    run = crun(sim, exe, t, cparams(9, n, cmp, scalar=-1.0), x, y, m)
    np.testing.assert_array_equal(
        run.outputs[3].view(np.uint8)[: n // 8], packbits(MODES[cmp](x[:n], t(-1)))
    )


def test_compare_level0_and_count_rule(sim, cs):
    dtype, t, exe = cs
    epr = 256 // np.dtype(t).itemsize
    rng = np.random.default_rng(2)
    x = rng.integers(-3, 3, CAP_C).astype(t)
    y = rng.integers(-3, 3, CAP_C).astype(t)
    m = np.zeros(CAP_C * 4, np.uint8)
    run = crun(sim, exe, t, cparams(2, cmp=1, mask=epr, repeat=3), x, y, m)
    np.testing.assert_array_equal(
        run.outputs[3].view(np.uint8)[: 3 * epr // 8], packbits(x[: 3 * epr] > y[: 3 * epr])
    )
    run = crun(sim, exe, t, cparams(3, cmp=0, scalar=0.0, mask=epr, repeat=2), x, y, m)
    np.testing.assert_array_equal(
        run.outputs[3].view(np.uint8)[: 2 * epr // 8], packbits(x[: 2 * epr] < 0)
    )
    bad = sim.run(exe, 1, [x, y, m, np.zeros(CAP_C, t), cparams(0, 100, 0)])
    assert bad.returncode == 3 and "BAD_PARAM" in bad.codes("error")
    assert "multiple of 256 bytes" in bad.stderr


def test_select_modes(sim, cs):
    dtype, t, exe = cs
    epr = 256 // np.dtype(t).itemsize
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, CAP_C).astype(t)
    y = rng.uniform(-1, 1, CAP_C).astype(t)
    bits = rng.integers(0, 2, CAP_C).astype(bool)
    m = np.zeros(CAP_C * 4, np.uint8)
    m[: CAP_C // 8] = packbits(bits)
    n = 640
    run = crun(
        sim, exe, t, cparams(4, n, sel=2), x, y, m
    )  # VSEL_TENSOR_TENSOR_MODE: continuous bits
    np.testing.assert_array_equal(run.outputs[3][:n], np.where(bits[:n], x[:n], y[:n]))
    run = crun(
        sim, exe, t, cparams(4, n, sel=0), x, y, m
    )  # VSEL_CMPMASK_SPR: same bits every repeat
    reused = np.tile(bits[:epr], n // epr + 1)[:n]
    np.testing.assert_array_equal(run.outputs[3][:n], np.where(reused, x[:n], y[:n]))
    run = crun(sim, exe, t, cparams(5, n, sel=1, scalar=9.0), x, y, m)  # tensor-scalar
    np.testing.assert_array_equal(run.outputs[3][:n], np.where(bits[:n], x[:n], t(9)))
    run = crun(sim, exe, t, cparams(6, sel=2, mask=epr, repeat=2), x, y, m)
    np.testing.assert_array_equal(
        run.outputs[3][: 2 * epr], np.where(bits[: 2 * epr], x[: 2 * epr], y[: 2 * epr])
    )


def test_cmpmask_register_select(sim, cs):
    dtype, t, exe = cs
    epr = 256 // np.dtype(t).itemsize
    rng = np.random.default_rng(11)
    x = rng.uniform(-1, 1, CAP_C).astype(t)
    y = rng.uniform(-1, 1, CAP_C).astype(t)
    m = np.zeros(CAP_C * 4, np.uint8)
    run = crun(sim, exe, t, cparams(8, cmp=1, mask=epr), x, y, m)
    np.testing.assert_array_equal(run.outputs[3][:epr], np.maximum(x[:epr], y[:epr]))
    np.testing.assert_array_equal(
        run.outputs[2][CAP_C * 2 : CAP_C * 2 + epr // 8], packbits(x[:epr] > y[:epr])
    )


def test_gather(sim, cs):
    dtype, t, exe = cs
    size = np.dtype(t).itemsize
    x = np.arange(CAP_C).astype(t)
    rng = np.random.default_rng(12)
    idx = rng.integers(0, 1000, 500)
    m = np.zeros(CAP_C * 4, np.uint8)
    m[: 500 * 4] = (idx * size).astype(np.uint32).view(np.uint8)
    run = crun(sim, exe, t, cparams(7, 500, base=8 * size), x, x, m)
    np.testing.assert_array_equal(run.outputs[3][:500], x[idx + 8])


def test_gather_level0(sim, cs):
    dtype, t, exe = cs
    size = np.dtype(t).itemsize
    epr = 256 // size
    x = np.arange(CAP_C).astype(t)
    rng = np.random.default_rng(13)
    idx = rng.integers(0, 1000, 2 * epr)
    m = np.zeros(CAP_C * 4, np.uint8)
    m[: 2 * epr * 4] = (idx * size).astype(np.uint32).view(np.uint8)
    z0 = np.full(CAP_C, -1, t)
    run = crun(sim, exe, t, cparams(10, mask=10, repeat=2), x, x, m, z0)
    want = z0.copy()
    for r in range(2):
        want[r * epr : r * epr + 10] = x[idx[r * epr : r * epr + 10]]
    np.testing.assert_array_equal(run.outputs[3], want)


SUM_KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, 48);
    gz.SetGlobalBuffer((__gm__ float*)z, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 1024);
    LocalTensor<float> src = t.GetWithOffset<float>(48, 0);
    LocalTensor<float> dst = t.GetWithOffset<float>(8, 512);
    DataCopy(src, gx, 48);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Duplicate(dst, 0.0f, 8);
    SumParams p{3, 16, 13};
    Sum(dst, src, p);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, dst, 8);
}
"""


def test_sum_adds_the_first_n_of_each_padded_row(sim):
    """Issue #31: the advanced Sum API (NPUKernelBench's FeedsRepeat): outter rows of inner
    elements (32-byte padded), each summing its first n into dst[row]."""
    exe = sim.build(SUM_KERNEL, args=2)
    x = np.random.default_rng(5).uniform(-2, 2, 48).astype(np.float32)
    run = sim.run(exe, 1, [x, np.zeros(8, np.float32)])
    assert run.returncode == 0, run.stderr
    want = x.reshape(3, 16)[:, :13].astype(np.float64).sum(axis=1)
    np.testing.assert_allclose(run.outputs[1][:3], want, rtol=1e-6, atol=1e-6)
    assert [e for e in run.report["timeline"] if e["op"] == "Sum"][0]["pipe"] == "V"
