"""Element-wise vector APIs against numpy: level 2 (count), level 3 (operators) and level 0
(contiguous and bit masks, repeat times, block and repeat strides).

Why: these are the instructions every kernel is made of; a wrong rounding, stride or mask here
would silently corrupt every evaluation.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS

CAP = 4096
DT = {"half": np.float16, "float": np.float32}


def params(
    op: int,
    n: int = 0,
    scalar: float = 0.0,
    *,
    mask: int = 0,
    bits: tuple[int, int] = (0, 0),
    repeat: int = 0,
    strides: tuple[int, ...] = (1, 1, 1, 8, 8, 8),
    bit_mode: bool = False,
) -> np.ndarray:
    p = np.zeros(32, np.int32)
    p[0], p[1] = op, n
    p[2] = np.float32(scalar).view(np.int32)
    lo, hi = bits
    p[3:7] = np.array([lo & 0xFFFFFFFF, lo >> 32, hi & 0xFFFFFFFF, hi >> 32], np.uint32).view(
        np.int32
    )
    p[7], p[8] = mask, repeat
    p[9:15] = strides
    p[15] = int(bit_mode)
    return p


@pytest.fixture(scope="module", params=["half", "float"])
def vec(request, sim):
    dtype = request.param
    exe = sim.build(KERNELS / "vec_ops.cpp", args=4, defines={"DTYPE": dtype})
    return dtype, DT[dtype], exe


def run_op(sim, exe, t, p, x, y, z0):
    run = sim.run(exe, 1, [x.astype(t), y.astype(t), z0.astype(t), p])
    assert run.returncode == 0, run.stderr
    return run


def f32(a):
    return a.astype(np.float32)


LEVEL2 = {
    0: lambda x, y, s: f32(x) + f32(y),
    1: lambda x, y, s: f32(x) - f32(y),
    2: lambda x, y, s: f32(x) * f32(y),
    3: lambda x, y, s: f32(x) / f32(y),
    4: lambda x, y, s: np.maximum(f32(x), f32(y)),
    5: lambda x, y, s: np.minimum(f32(x), f32(y)),
    6: lambda x, y, s: f32(x) + s,
    7: lambda x, y, s: f32(x) * s,
    8: lambda x, y, s: np.maximum(f32(x), s),
    9: lambda x, y, s: np.minimum(f32(x), s),
    10: lambda x, y, s: np.exp(f32(x)),
    11: lambda x, y, s: np.log(f32(x)),
    12: lambda x, y, s: np.abs(f32(x)),
    13: lambda x, y, s: np.sqrt(f32(x)),
    14: lambda x, y, s: 1.0 / np.sqrt(f32(x)),
    15: lambda x, y, s: 1.0 / f32(x),
    16: lambda x, y, s: np.maximum(f32(x), 0),
    17: lambda x, y, s: np.where(f32(x) >= 0, f32(x), f32(x) * s),
}
POSITIVE = {11, 13, 14}  # need x > 0


def inputs(t, rng, positive=False):
    lo = 0.1 if positive else -4.0
    x = rng.uniform(lo, 4.0, CAP).astype(t)
    y = rng.uniform(0.5, 4.0, CAP).astype(t) * rng.choice([-1, 1], CAP).astype(t)
    return x, y


@pytest.mark.parametrize("op", sorted(LEVEL2))
def test_level2(sim, vec, op):
    dtype, t, exe = vec
    rng = np.random.default_rng(op)
    x, y = inputs(t, rng, op in POSITIVE)
    n = 1000 if dtype == "half" else 600  # not a multiple of a repeat: the tail must be handled
    s = float(t(0.75))
    z0 = np.full(CAP, 7, t)
    run = run_op(sim, exe, t, params(op, n, s), x, y, z0)
    out = run.outputs[2]
    want = LEVEL2[op](x[:n], y[:n], np.float32(s)).astype(t)
    exact = op in {0, 1, 2, 4, 5, 6, 7, 8, 9, 12, 16, 17} or dtype == "half" and op in {3, 15}
    if exact:
        np.testing.assert_array_equal(out[:n], want)
    else:  # transcendental functions: libm and numpy may differ by an ulp
        np.testing.assert_allclose(f32(out[:n]), f32(want), rtol=2e-3 if dtype == "half" else 2e-6)
    np.testing.assert_array_equal(out[n:], z0[n:])  # elements past `count` untouched


def test_duplicate_axpy_level3(sim, vec):
    dtype, t, exe = vec
    rng = np.random.default_rng(1)
    x, y = inputs(t, rng)
    z0 = rng.uniform(-1, 1, CAP).astype(t)
    run = run_op(sim, exe, t, params(18, 512, 2.5), x, y, z0)
    np.testing.assert_array_equal(run.outputs[2][:512], np.full(512, 2.5, t))
    np.testing.assert_array_equal(run.outputs[2][512:], z0[512:])
    run = run_op(sim, exe, t, params(19, 256, 0.5), x, y, z0)
    np.testing.assert_array_equal(
        run.outputs[2][:256], (f32(z0[:256]) + f32(x[:256]) * np.float32(0.5)).astype(t)
    )
    run = run_op(sim, exe, t, params(20), x, y, z0)  # lz = lx + ly over GetSize() elements
    np.testing.assert_array_equal(run.outputs[2], (f32(x) + f32(y)).astype(t))
    run = run_op(sim, exe, t, params(21), x, y, z0)
    np.testing.assert_array_equal(run.outputs[2], (f32(x) * f32(y)).astype(t))


# ---- level 0: an independent re-implementation of the addressing rules ----
def lanes(epr: int, mask: int | None, bits: tuple[int, int] | None) -> np.ndarray:
    if bits is not None:
        lo, hi = bits
        return np.array(
            [(lo >> i) & 1 if i < 64 else (hi >> (i - 64)) & 1 for i in range(epr)], bool
        )
    return np.arange(epr) < mask


def l0_index(r, lane, esize, blk, rep):
    epb = 32 // esize
    return (r * rep * 32 + (lane // epb) * blk * 32 + (lane % epb) * esize) // esize


def level0_expected(fn, x, y, z0, esize, repeat, active, strides, unary=False):
    dblk, s0blk, s1blk, drep, s0rep, s1rep = strides
    z = z0.copy()
    for r in range(repeat):
        for lane in np.nonzero(active)[0]:
            a = x[l0_index(r, lane, esize, s0blk, s0rep)]
            b = y[l0_index(r, lane, esize, s1blk, s1rep)] if not unary else None
            old = z[l0_index(r, lane, esize, dblk, drep)]
            z[l0_index(r, lane, esize, dblk, drep)] = fn(a, b, old)
    return z


L0_CASES = {
    100: (lambda a, b, o: np.float32(a) + np.float32(b), False),
    101: (lambda a, b, o: np.float32(a) - np.float32(b), False),
    102: (lambda a, b, o: np.float32(a) * np.float32(b), False),
    103: (lambda a, b, o: np.float32(a) / np.float32(b), False),
    104: (lambda a, b, o: max(np.float32(a), np.float32(b)), False),
    105: (lambda a, b, o: min(np.float32(a), np.float32(b)), False),
    106: (lambda a, b, o: np.float32(a) + np.float32(0.75), True),
    107: (lambda a, b, o: np.float32(a) * np.float32(0.75), True),
    108: (lambda a, b, o: max(np.float32(a), np.float32(0.75)), True),
    109: (lambda a, b, o: min(np.float32(a), np.float32(0.75)), True),
    112: (lambda a, b, o: abs(np.float32(a)), True),
    116: (lambda a, b, o: max(np.float32(a), np.float32(0)), True),
    117: (lambda a, b, o: np.float32(a) if a >= 0 else np.float32(a) * np.float32(0.75), True),
    118: (lambda a, b, o: np.float32(0.75), True),
    119: (lambda a, b, o: np.float32(o) + np.float32(a) * np.float32(0.75), True),
}


@pytest.mark.parametrize("op", sorted(L0_CASES))
@pytest.mark.parametrize(
    "form",
    [
        ("count", 50, None, 3, (1, 1, 1, 8, 8, 8)),
        ("bits", None, (0xF0F0_0000_0000_FFFF, 0x8000_0000_0000_0001), 2, (1, 1, 1, 8, 8, 8)),
        ("strided", 64, None, 3, (2, 2, 1, 16, 16, 8)),
    ],
    ids=["count", "bits", "strided"],
)
def test_level0(sim, vec, op, form):
    dtype, t, exe = vec
    name, mask, bits, repeat, strides = form
    esize = np.dtype(t).itemsize
    epr = 256 // esize
    if mask is not None:
        mask = min(mask, epr)
    rng = np.random.default_rng(op)
    x, y = inputs(t, rng)
    z0 = rng.uniform(-9, 9, CAP).astype(t)
    fn, unary = L0_CASES[op]
    if op == 118:  # Duplicate: only dst strides (dstBlockStride, dstRepeatStride)
        strides = (strides[0], strides[0], strides[0], strides[3], strides[3], strides[3])
    if unary:
        strides = (strides[0], strides[1], strides[1], strides[3], strides[4], strides[4])
    p = params(
        op,
        0,
        0.75,
        mask=mask or 0,
        bits=bits or (0, 0),
        repeat=repeat,
        strides=strides,
        bit_mode=bits is not None,
    )
    run = run_op(sim, exe, t, p, x, y, z0)
    want = level0_expected(
        lambda a, b, o: t(fn(a, b, o)),
        x,
        y,
        z0,
        esize,
        repeat,
        lanes(epr, mask, bits),
        strides,
        unary,
    )
    np.testing.assert_array_equal(run.outputs[2], want)


@pytest.mark.parametrize("op", [110, 111, 113, 114, 115])
def test_level0_transcendental(sim, vec, op):
    dtype, t, exe = vec
    esize = np.dtype(t).itemsize
    epr = 256 // esize
    rng = np.random.default_rng(op)
    x = rng.uniform(0.2, 3.0, CAP).astype(t)
    z0 = np.zeros(CAP, t)
    p = params(op, 0, 0, mask=epr, repeat=4, strides=(1, 1, 1, 8, 8, 8))
    run = run_op(sim, exe, t, p, x, x, z0)
    fn = {
        110: np.exp,
        111: np.log,
        113: np.sqrt,
        114: lambda v: 1 / np.sqrt(v),
        115: lambda v: 1 / v,
    }[op]
    np.testing.assert_allclose(
        f32(run.outputs[2][: 4 * epr]),
        f32(fn(f32(x[: 4 * epr])).astype(t)),
        rtol=2e-3 if dtype == "half" else 2e-6,
    )


INT = {"int16_t": np.int16, "int32_t": np.int32, "uint16_t": np.uint16}


@pytest.mark.parametrize(
    "dtype,group",
    [
        ("int16_t", "ARITH"),
        ("int32_t", "ARITH"),
        ("int32_t", "RELU"),
        ("int16_t", "BITWISE"),
        ("uint16_t", "BITWISE"),
        ("int32_t", "SHIFT"),
    ],
)
def test_integer_ops(sim, dtype, group):
    t = INT[dtype]
    exe = sim.build(KERNELS / "vec_int.cpp", args=4, defines={"DTYPE": dtype, group: "1"})
    rng = np.random.default_rng(3)
    info = np.iinfo(t)
    x = rng.integers(max(info.min, -1000), min(info.max, 1000), CAP).astype(t)
    y = rng.integers(max(info.min, -1000), min(info.max, 1000), CAP).astype(t)
    z0 = np.zeros(CAP, t)
    n = 300
    cases = {
        "ARITH": {
            0: x + y,
            1: x - y,
            2: x * y,
            4: np.maximum(x, y),
            5: np.minimum(x, y),
            6: x + t(3),
            7: x * t(3),
            8: np.maximum(x, t(3)),
            9: np.minimum(x, t(3)),
        },
        "RELU": {16: np.maximum(x, 0).astype(t)},
        "BITWISE": {30: x & y, 31: x | y, 32: ~x, 33: (x << 3).astype(t), 34: (x >> 3).astype(t)},
        "SHIFT": {33: (x << 3).astype(t), 34: (x >> 3).astype(t)},
    }[group]
    for op, want in cases.items():
        p = params(op, n)
        p[2] = 3
        run = sim.run(exe, 1, [x, y, z0, p])
        assert run.returncode == 0, run.stderr
        np.testing.assert_array_equal(run.outputs[2][:n], want[:n].astype(t), err_msg=f"op {op}")
    if group in ("BITWISE", "SHIFT"):
        # by the element's width: all shifted out, but a signed right shift keeps the sign in
        # every bit (NPUKernelBench's int32 Abs takes its sign mask so)
        bits = 8 * np.dtype(t).itemsize
        for op, want in {33: np.zeros_like(x), 34: np.where(x < 0, -1, 0).astype(t)}.items():
            p = params(op, n)
            p[2] = bits
            run = sim.run(exe, 1, [x, y, z0, p])
            assert run.returncode == 0, run.stderr
            np.testing.assert_array_equal(run.outputs[2][:n], want[:n], err_msg=f"op {op} by {bits}")
    # level 0 sample: first `mask` lanes of 2 repeats
    op = 100 if group == "ARITH" else 130 if group == "BITWISE" else None
    if op is not None:
        epr = 256 // np.dtype(t).itemsize
        p = params(op, 0, mask=10, repeat=2)
        run = sim.run(exe, 1, [x, y, z0, p])
        assert run.returncode == 0, run.stderr
        want = z0.copy()
        for r in range(2):
            sl = slice(r * epr, r * epr + 10)
            want[sl] = (x[sl] + y[sl]) if op == 100 else (x[sl] & y[sl])
        np.testing.assert_array_equal(run.outputs[2], want)
