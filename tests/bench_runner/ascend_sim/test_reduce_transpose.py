"""GetReduceMaxMinCount, Transpose and TransDataTo5HD against numpy.

Why: GetReduceMaxMinCount reads a special register that WholeReduceMax/Min and ReduceMax/Min leave
behind (value bits low, index high), and TransDataTo5HD scatters 16 DataBlocks through address lists
with element mappings that differ for 8-, 16- and 32-bit types; public norm/argmax kernels depend on
both, so each is checked element by element against an independent numpy model.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS

CAP = 4096
CAP_B = 16384
DT = {"half": np.float16, "float": np.float32}
UT = {np.float16: np.uint16, np.float32: np.uint32}


# ---- GetReduceMaxMinCount ----


@pytest.fixture(scope="module", params=["half", "float"])
def mm(request, sim):
    exe = sim.build(KERNELS / "rt_maxmin.cpp", args=3, defines={"DTYPE": request.param})
    return DT[request.param], exe


def run_mm(sim, exe, x, op, mask=0, repeat=0, n=0):
    p = np.zeros(32, np.int32)
    p[:4] = [op, mask, repeat, n]
    run = sim.run(exe, 1, [x, np.zeros(CAP, x.dtype), p])
    return run


def reg(run, t):
    """The (value, index) that GetReduceMaxMinCount returned, decoded."""
    p = run.outputs[2]
    u = UT[t]
    value = np.array([p[30]], np.int32).view(np.uint32).astype(u).view(t)[0]
    index = int(np.array([p[31]], np.int32).view(np.uint32)[0]) & (
        0xFFFF if t == np.float16 else 0xFFFFFFFF
    )
    return value, index


@pytest.mark.parametrize("op,fn", [(0, np.argmax), (1, np.argmin)])
def test_whole_reduce_register(sim, mm, op, fn):
    t, exe = mm
    epr = 256 // np.dtype(t).itemsize
    rng = np.random.default_rng(11 + op)
    x = rng.permutation(CAP).astype(np.float32)
    x = (x / CAP - 0.5).astype(t)
    repeat, mask = 5, epr - 3  # partial mask: lanes >= mask of every repeat do not count
    run = run_mm(sim, exe, x, op, mask=mask, repeat=repeat)
    assert run.returncode == 0, run.stderr
    active = np.concatenate([x[r * epr : r * epr + mask] for r in range(repeat)])
    pos = np.concatenate([np.arange(r * epr, r * epr + mask) for r in range(repeat)])
    k = int(fn(active))
    value, index = reg(run, t)
    assert value == active[k]
    assert index == pos[k]
    # the reduce's own per-repeat output is unchanged by the register bookkeeping
    z = run.outputs[1]
    per = [x[r * epr : r * epr + mask] for r in range(repeat)]
    if op == 0:
        got = z[: 2 * repeat : 2]
        np.testing.assert_array_equal(got, np.array([v.max() for v in per], t))
    else:
        np.testing.assert_array_equal(z[:repeat], np.array([v.min() for v in per], t))


def test_reduce_register(sim, mm):
    t, exe = mm
    rng = np.random.default_rng(3)
    x = rng.uniform(-4, 4, CAP).astype(t)
    n = 3001
    run = run_mm(sim, exe, x, 2, n=n)
    assert run.returncode == 0, run.stderr
    value, index = reg(run, t)
    assert value == x[:n].max() and index == int(np.argmax(x[:n]))
    epr = 256 // np.dtype(t).itemsize
    run = run_mm(sim, exe, x, 3, mask=epr, repeat=7)
    assert run.returncode == 0, run.stderr
    value, _ = reg(run, t)
    assert value == x[: 7 * epr].min()


def test_one_argument_form_rejected(sim, mm):
    t, exe = mm
    run = run_mm(sim, exe, np.zeros(CAP, t), 4)
    assert run.returncode != 0
    assert "UNSUPPORTED" in run.codes("error") or "UNSUPPORTED" in run.stderr


# ---- Transpose / TransDataTo5HD ----

TT = {"half": np.float16, "float": np.float32, "int8_t": np.int8, "uint16_t": np.uint16}


@pytest.fixture(scope="module")
def trans(sim):
    exes = {}

    def get(dtype):
        if dtype not in exes:
            exes[dtype] = sim.build(KERNELS / "rt_transpose.cpp", args=3, defines={"DTYPE": dtype})
        return exes[dtype]

    return get


def tparams(op, rep=1, drs=0, srs=0, dhh=0, shh=0, so=None, do=None, ext=(0, 0, 0, 0, 0)):
    p = np.zeros(64, np.int32)
    p[:6] = [op, rep, drs, srs, dhh, shh]
    if so is not None:
        p[6:22] = so
        p[22:38] = do
    p[38:43] = ext
    return p


def ref_5hd(x, z, so, do, rep, drs, srs, dhh, shh):
    """Independent numpy model of vnchwconv on element arrays x (src) and z (dst, updated)."""
    es = x.dtype.itemsize
    b = 32 // es  # elements per DataBlock
    z = z.copy()
    for r in range(rep):
        k = 1 if rep == 1 else r
        sblk = np.stack([x[so[j] + k * srs * b : so[j] + k * srs * b + b] for j in range(16)])
        if es == 2:
            out = sblk.T  # (16, 16): dst i gets column i
            for i in range(16):
                z[do[i] + k * drs * b : do[i] + k * drs * b + b] = out[i]
        elif es == 4:
            out = sblk.T.reshape(16, 8)  # 8 rows of 16 -> 16 blocks of 8
            for i in range(16):
                z[do[i] + k * drs * b : do[i] + k * drs * b + b] = out[i]
        else:
            cols = sblk[:, 16 * shh : 16 * shh + 16]  # (16 src, 16 bytes)
            for i in range(16):
                base = do[i] + k * drs * b + 16 * dhh
                z[base : base + 16] = cols[:, i]
    return z


def rand(t, n, seed):
    rng = np.random.default_rng(seed)
    if np.issubdtype(t, np.integer):
        info = np.iinfo(t)
        return rng.integers(info.min, info.max, n, endpoint=True).astype(t)
    return rng.uniform(-8, 8, n).astype(t)


def run_t(sim, exe, x, z, p):
    run = sim.run(exe, 1, [x, z, p])
    assert run.returncode == 0, run.stderr
    return run.outputs[1]


@pytest.mark.parametrize("dtype", ["half", "uint16_t"])
def test_transpose_16x16(sim, trans, dtype):
    t = TT[dtype]
    n = CAP_B // np.dtype(t).itemsize
    x, z = rand(t, n, 1), rand(t, n, 2)
    out = run_t(sim, trans(dtype), x, z, tparams(0))
    np.testing.assert_array_equal(out[:256].reshape(16, 16), x[:256].reshape(16, 16).T)
    np.testing.assert_array_equal(out[256:], z[256:])  # nothing past the 16 x 16 block is written


@pytest.mark.parametrize("dtype,ty", [("half", 11), ("float", 11), ("half", 12)])
def test_transpose_ext(sim, trans, dtype, ty):
    t = TT[dtype]
    n = CAP_B // np.dtype(t).itemsize
    x, z = rand(t, n, 3), np.zeros(n, t)
    N, C, H, W = 2, 3, 2, 8
    tot = N * C * H * W
    out = run_t(sim, trans(dtype), x, z, tparams(1, ext=(N, C, H, W, ty)))
    if ty == 11:  # NCHW -> NHWC
        want = x[:tot].reshape(N, C, H, W).transpose(0, 2, 3, 1).ravel()
    else:  # NHWC -> NCHW
        want = x[:tot].reshape(N, H, W, C).transpose(0, 3, 1, 2).ravel()
    np.testing.assert_array_equal(out[:tot], want)


CASES = [
    # dtype, form op, repeat, dstRepStride, srcRepStride, dstHighHalf, srcHighHalf
    ("half", 2, 1, 0, 0, 0, 0),
    ("half", 3, 4, 16, 1, 0, 0),
    ("half", 4, 1, 2, 3, 0, 0),  # repeat 1 with strides: the single repeat starts at + stride
    ("half", 5, 3, 1, 16, 0, 0),
    ("float", 2, 2, 16, 1, 0, 0),
    ("float", 5, 1, 0, 0, 0, 0),
    ("float", 3, 3, 2, 16, 0, 0),
    ("int8_t", 2, 1, 0, 0, 0, 1),
    ("int8_t", 3, 2, 16, 1, 1, 0),
    ("int8_t", 4, 1, 0, 0, 1, 1),
]


@pytest.mark.parametrize("dtype,op,rep,drs,srs,dhh,shh", CASES)
def test_trans_data_to_5hd(sim, trans, dtype, op, rep, drs, srs, dhh, shh):
    t = TT[dtype]
    es = np.dtype(t).itemsize
    b = 32 // es
    n = CAP_B // es
    x, z = rand(t, n, 7 + op), rand(t, n, 9 + rep)
    # scattered, non-monotonic source rows (NCHW planes) and packed destination blocks
    so = np.array([((j * 5) % 16) * 2 * b for j in range(16)], np.int32)
    do = np.array([i * b for i in range(16)], np.int32) + 64 * b
    out = run_t(sim, trans(dtype), x, z, tparams(op, rep, drs, srs, dhh, shh, so, do))
    want = ref_5hd(x, z, so, do, rep, drs, srs, dhh, shh)
    np.testing.assert_array_equal(out, want)


def test_5hd_nchw_to_nc1hwc0(sim, trans):
    """The documented NCHW -> NC1HWC0 recipe: src planes H*W apart, srcRepStride 1, dstRepStride 16."""
    t = np.float16
    n = CAP_B // 2
    H = W = 8
    C0 = 16
    x, z = rand(t, n, 21), np.zeros(n, t)
    so = np.arange(16, dtype=np.int32) * H * W
    do = np.arange(16, dtype=np.int32) * 16
    out = run_t(sim, trans("half"), x, z, tparams(2, H * W // 16, 16, 1, 0, 0, so, do))
    want = x[: C0 * H * W].reshape(C0, H, W).transpose(1, 2, 0).ravel()
    np.testing.assert_array_equal(out[: C0 * H * W], want)


def test_5hd_out_of_bounds_and_misaligned_rejected(sim, trans):
    t = np.float16
    n = CAP_B // 2
    so = np.arange(16, dtype=np.int32) * 16
    do = np.arange(16, dtype=np.int32) * 16
    do[5] = n - 16  # dst's last DataBlock: the second repeat (+1 block) runs past the tensor
    run = sim.run(
        trans("half"), 1, [rand(t, n, 1), np.zeros(n, t), tparams(2, 2, 1, 1, 0, 0, so, do)]
    )
    # inside the UB the NPU writes on into what follows the tensor: carried out, with a warning
    assert run.returncode == 0 and "LOCAL_OOB" in run.codes("warning")
    do[5] = n - 8  # not on a DataBlock boundary
    run = sim.run(
        trans("half"), 1, [rand(t, n, 1), np.zeros(n, t), tparams(2, 1, 0, 0, 0, 0, so, do)]
    )
    assert run.returncode != 0 and "ADDR_ALIGN" in run.codes("error")


# ---- namespace matmul = AscendC ----


def test_matmul_namespace_alias(sim):
    """matmul:: and AscendC:: spell the same Matmul API (static_asserts in the kernel)."""
    proc, _ = sim.compile(KERNELS / "rt_matmul_ns.cpp", args=3)
    assert proc.returncode == 0, proc.stderr[-4000:]
    # reopening the alias as a namespace is an error, as with CANN's headers
    bad = (
        '#include "kernel_operator.h"\n#include "lib/matmul_intf.h"\nnamespace matmul { int x; }\n'
    )
    proc, _ = sim.compile(
        bad + 'extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c) {}\n'
    )
    assert proc.returncode != 0
