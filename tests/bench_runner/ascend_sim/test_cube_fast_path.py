"""The cube's fast multiply path (cube_impl.h "Multiply kernels", and the Matmul API through it)
against a numpy reference that adds the products in the same order, bit for bit.

Why: Mmad and the Matmul API are emulated with packed operands and vectorised, register-blocked
kernels; each L0C element must still be its initial value (0, the bias or the old L0C value) plus
A[i, kk] * B[kk, j] added one kk at a time in float (int8: int32 with wrap-around, i.e. the int64
sum truncated), each product and sum rounded on its own. Shapes here are not multiples of 16 nor
of the kernels' 4 x 16 tiles, so every edge tile is taken; the shadow checks (UNINIT_READ) keep
their meaning, and two runs give the same bytes.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS
from .test_cube import build as build_cube
from .test_cube import rand, run_mm
from .test_matmul_api import run as run_hl

# One Mmad (or two: split K, the second accumulating) of A (M x K) by B^T (N x K), optionally with
# a bias table, written back unconverted (NoQuant: the L0C bits). ELEM is the input type, ACC
# the L0C type. Buffers: a, bt, c (M x N of ACC), bias (N of ACC), p (int32: M, K, N, bias,
# split, flags). flags: 1 = leave the last 16 rows of A out of L0A, 2 = leave the last K block
# of B out of L0B, 4 = the first Mmad accumulates (cmatrixInitVal = false) onto unwritten L0C.
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t C0 = 32 / sizeof(ELEM);
__aicore__ inline uint32_t Up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR bias, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const uint32_t M = p.GetValue(0), K = p.GetValue(1), N = p.GetValue(2);
    const bool withBias = p.GetValue(3) != 0, split = p.GetValue(4) != 0;
    const uint32_t flags = p.GetValue(5);
    const uint32_t Mp = Up(M, 16), Np = Up(N, 16), m1 = Mp / 16, n1 = Np / 16, k1 = Up(K, C0) / C0;
    GlobalTensor<ELEM> ga, gb;
    GlobalTensor<ACC> gc, gbias;
    ga.SetGlobalBuffer((__gm__ ELEM *)a);
    gb.SetGlobalBuffer((__gm__ ELEM *)b);
    gc.SetGlobalBuffer((__gm__ ACC *)c);
    gbias.SetGlobalBuffer((__gm__ ACC *)bias);
    TPipe pipe;
    TBuf<TPosition::A1> ta1, tx1;
    TBuf<TPosition::B1> tb1;
    TBuf<TPosition::A2> ta2;
    TBuf<TPosition::B2> tb2;
    TBuf<TPosition::CO1> tc;
    TBuf<TPosition::C2> tbt;
    pipe.InitBuffer(ta1, m1 * k1 * 512);
    pipe.InitBuffer(tb1, n1 * k1 * 512);
    pipe.InitBuffer(tx1, Np * sizeof(ACC));
    pipe.InitBuffer(ta2, m1 * k1 * 512);
    pipe.InitBuffer(tb2, n1 * k1 * 512);
    pipe.InitBuffer(tc, m1 * n1 * 256 * sizeof(ACC));
    pipe.InitBuffer(tbt, Np * sizeof(ACC));
    LocalTensor<ELEM> a1 = ta1.Get<ELEM>(), b1 = tb1.Get<ELEM>(), a2 = ta2.Get<ELEM>(), b2 = tb2.Get<ELEM>();
    LocalTensor<ACC> c1 = tc.Get<ACC>();
    DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, Mp, 1, 0));
    DataCopy(b1, gb, Nd2NzParams(1, N, K, 0, K, Np, 1, 0));
    LocalTensor<ACC> bias2 = tbt.Get<ACC>();
    if (withBias) {
        LocalTensor<ACC> bias1 = tx1.Get<ACC>();
        DataCopy(bias1, gbias, Np);
        DataCopy(bias2, bias1, Np);
    }
    const uint32_t kSplit = split && k1 > 1 ? k1 / 2 : k1;  // K blocks of the first Mmad
    for (uint32_t part = 0; part < (kSplit < k1 ? 2u : 1u); ++part) {
        const uint32_t kb0 = part == 0 ? 0 : kSplit, kbn = part == 0 ? kSplit : k1 - kSplit;
        const uint32_t kk = part == 0 ? (kSplit < k1 ? kSplit * C0 : K) : K - kSplit * C0;
        LocalTensor<ELEM> pa = a2[m1 * kb0 * 16 * C0], pb = b2[n1 * kb0 * 16 * C0];
        for (uint32_t i = 0; i < m1; ++i) {
            if ((flags & 1) && i == m1 - 1) continue;
            LoadData(pa[i * kbn * 16 * C0], a1, LoadData2DParams(kb0 * m1 + i, kbn, m1, 0, 0, false, 0));
        }
        const uint32_t bFractals = (flags & 2) && part + 1 == (kSplit < k1 ? 2u : 1u) ? (kbn - 1) * n1 : kbn * n1;
        if (bFractals) LoadData(pb, b1, LoadData2DParams(kb0 * n1, bFractals, 1, 0, 0, false, 0));
        MmadParams mp(M, N, kk, 0, false, part == 0 && !(flags & 4));
        if (part == 0 && withBias) {
            mp.cmatrixSource = true;
            Mmad(c1, pa, pb, bias2, mp);
        } else {
            Mmad(c1, pa, pb, mp);
        }
    }
    Fixpipe(gc, c1, FixpipeParamsV220(N, M, Mp, N, false));
}
"""

TYPES = {  # ELEM, ACC, numpy input type, numpy L0C type
    "fp16": ("half", "float", np.float16, np.float32),
    "bf16": ("bfloat16_t", "float", np.uint16, np.float32),
    "fp32": ("float", "float", np.float32, np.float32),
    "int8": ("int8_t", "int32_t", np.int8, np.int32),
}
# (M, K, N): 1 x 1 x 1, tails of 16 rows / columns, of the 4-row tiles, of C0 in K (16 halves,
# 8 floats, 32 int8), aligned, and one wider than a 16-column panel by one
SHAPES = [(1, 1, 1), (5, 3, 7), (37, 75, 100), (64, 64, 64), (19, 130, 33), (100, 47, 129)]

_exes: dict[str, object] = {}


def exe_for(sim, kind):
    if kind not in _exes:
        elem, acc, _, _ = TYPES[kind]
        _exes[kind] = sim.build(KERNEL, args=5, defines={"KERNEL_MODE": "AIC_MODE", "ELEM": elem, "ACC": acc})
    return _exes[kind]


def to_bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even."""
    u = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def as_f32(kind, x):
    if kind == "bf16":
        return (x.astype(np.uint32) << 16).view(np.float32)
    return x.astype(np.float32)


def inputs(kind, m, k, n, rng):
    if kind == "int8":
        return rand((m, k), np.int8, rng, -128, 127), rand((n, k), np.int8, rng, -128, 127)
    a, bt = rng.uniform(-4, 4, (m, k)).astype(np.float32), rng.uniform(-4, 4, (n, k)).astype(np.float32)
    a.flat[::7] = 0.0
    a.flat[3::11] *= -1e3  # large and small magnitudes: sums that round at every step
    bt.flat[5::13] *= 1e-3
    if kind == "fp32":
        a.flat[2::17] = 1e-30  # products below float's normal range: subnormal sums
        bt.flat[1::19] = -3e-9
    if kind == "bf16":
        return to_bf16(a), to_bf16(bt)
    return a.astype(TYPES[kind][2]), bt.astype(TYPES[kind][2])


def reference(kind, a, bt, init):
    """init + sum over kk of a[:, kk] * bt[:, kk], one kk at a time in the L0C type."""
    if kind == "int8":
        acc = init.astype(np.int64)
        acc = acc + a.astype(np.int64) @ bt.T.astype(np.int64)
        return acc.astype(np.int32)  # truncation: the low 32 bits
    af, bf = as_f32(kind, a), as_f32(kind, bt)
    acc = init.astype(np.float32).copy()
    for kk in range(a.shape[1]):
        prod = np.multiply(af[:, kk : kk + 1], bf[:, kk][None, :], dtype=np.float32)
        acc = np.add(acc, prod, dtype=np.float32)
    return acc


def run_fast(sim, kind, a, bt, bias, m, k, n, with_bias, split, flags=0):
    acc_t = TYPES[kind][3]
    p = np.array([m, k, n, int(with_bias), int(split), flags, 0, 0], np.int32)
    return sim.run(exe_for(sim, kind), 1, [a, bt, np.zeros((m, n), acc_t), bias, p])


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("m,k,n", SHAPES)
def test_mmad_bit_exact(sim, kind, m, k, n):
    rng = np.random.default_rng(m * 10007 + k * 101 + n)
    a, bt = inputs(kind, m, k, n, rng)
    acc_t = TYPES[kind][3]
    np_ = (n + 15) // 16 * 16
    if kind == "int8":  # near the int32 limits: the sums wrap
        bias = rng.integers(2**31 - 2**20, 2**31 - 1, np_).astype(np.int32) * np.where(np.arange(np_) % 2, -1, 1)
        bias = bias.astype(np.int32)
    else:
        bias = rng.uniform(-8, 8, np_).astype(np.float32)
    for with_bias in (False, True):
        for split in (False, True):  # split: the second Mmad accumulates onto L0C
            run = run_fast(sim, kind, a, bt, bias, m, k, n, with_bias, split)
            assert run.returncode == 0, run.stderr
            assert run.report["findings"] == [], run.stderr
            init = np.broadcast_to(bias[:n], (m, n)) if with_bias else np.zeros((m, n), acc_t)
            want = reference(kind, a, bt, init)
            got = run.outputs[2]
            assert got.dtype == want.dtype
            bad = np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))
            assert bad.size == 0, (
                f"{kind} {m}x{k}x{n} bias={with_bias} split={split}: {bad.size} elements differ, first at "
                f"{np.unravel_index(bad[0], (m, n))}: got {got.flat[bad[0]]!r} want {want.flat[bad[0]]!r}"
            )


@pytest.mark.parametrize("op", [0, 2, 3])
def test_cube_kernel_bit_exact_fp16(sim, op):
    """The suite-style path (Nd2Nz, LoadData with transpose for B = K x N, split-K accumulate)
    through tests/.../kernels/cube.cpp."""
    exe = build_cube(sim)
    rng = np.random.default_rng(40 + op)
    m, k, n = 53, 120, 90
    a = rand((m, k), np.float16, rng)
    b = rand((n, k) if op == 3 else (k, n), np.float16, rng)
    run = run_mm(sim, exe, op, a, b, np.zeros((m, n), np.float32))
    want = reference("fp16", a, b if op == 3 else np.ascontiguousarray(b.T), np.zeros((m, n), np.float32))
    np.testing.assert_array_equal(run.outputs[2].view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("flags,role", [(1, "fm (A, L0A)"), (2, "filter (B, L0B)"), (4, "accumulating")])
def test_uninitialised_operands_still_reported(sim, flags, role):
    rng = np.random.default_rng(flags)
    m, k, n = 37, 75, 100
    a, bt = inputs("fp16", m, k, n, rng)
    run = run_fast(sim, "fp16", a, bt, np.zeros(112, np.float32), m, k, n, False, flags == 2, flags)
    assert run.returncode == 0, run.stderr
    warns = [f for f in run.report["findings"] if f["code"] == "UNINIT_READ"]
    assert len(warns) == 1 and role in warns[0]["message"], run.report["findings"]


def test_matmul_api_bit_exact(sim, tmp_path):
    """The Matmul API: each element summed from 0 in increasing k in float, then the bias added."""
    exe = sim.build(KERNELS / "matmul_hl.cpp", host=KERNELS / "matmul_hl_main.cpp", extra_include_dirs=[KERNELS])
    rng = np.random.default_rng(77)
    m, k, n = 150, 90, 131
    a = rand((m, k), np.float16, rng, -1, 1)
    b = rand((k, n), np.float16, rng, -1, 1)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    out, rep, _ = run_hl(exe, tmp_path, 5, a, b, bias, m, k, n)
    acc = reference("fp16", a, np.ascontiguousarray(b.T), np.zeros((m, n), np.float32))
    want = np.add(acc, bias[None, :], dtype=np.float32)
    np.testing.assert_array_equal(out.view(np.uint32), want.view(np.uint32))
    assert rep["cube_macs"] == m * n * k


def test_two_runs_identical(sim, tmp_path):
    """Same bytes and the same cycles on every run (the cores run on threads)."""
    kind, (m, k, n) = "fp16", (100, 47, 129)
    a, bt = inputs(kind, m, k, n, np.random.default_rng(3))
    bias = np.linspace(-1, 1, 144).astype(np.float32)
    runs = [run_fast(sim, kind, a, bt, bias, m, k, n, True, True) for _ in range(2)]
    assert runs[0].outputs[2].tobytes() == runs[1].outputs[2].tobytes()
    assert runs[0].report["total_cycles"] == runs[1].report["total_cycles"]
    exe = sim.build(KERNELS / "matmul_hl.cpp", host=KERNELS / "matmul_hl_main.cpp", extra_include_dirs=[KERNELS])
    a = rand((256, 192), np.float16, np.random.default_rng(4), -1, 1)
    b = rand((192, 320), np.float16, np.random.default_rng(5), -1, 1)
    outs = [run_hl(exe, tmp_path, 24, a, b, bias[:0], 256, 192, 320) for _ in range(2)]
    assert outs[0][0].tobytes() == outs[1][0].tobytes()
    assert outs[0][1]["total_cycles"] == outs[1][1]["total_cycles"]


@pytest.mark.parametrize("kind", ["fp16", "int8"])
def test_sse2_kernel_same_bits(sim, kind):
    """The multiply kernel's SSE2 build (ASCEND_SIM_CUBE_SIMD=base; AVX2 is picked where the CPU
    has it) gives the same bits."""
    m, k, n = 37, 75, 100
    a, bt = inputs(kind, m, k, n, np.random.default_rng(8))
    bias = np.arange(112).astype(TYPES[kind][3])
    p = np.array([m, k, n, 1, 1, 0, 0, 0], np.int32)
    outs = []
    for simd in ("base", "auto"):
        run = sim.run(exe_for(sim, kind), 1, [a, bt, np.zeros((m, n), TYPES[kind][3]), bias, p],
                      env={"ASCEND_SIM_CUBE_SIMD": simd})
        assert run.returncode == 0, run.stderr
        outs.append(run.outputs[2].tobytes())
    assert outs[0] == outs[1]
