"""Vector and cube API forms that public AscendC kernels use, against numpy: GatherMask (built-in
patterns, tensor pattern, counter mode, rsvdCnt), Copy (level 0), Brcb, CreateVecIndex, the raw
vcadd / vector_dup / copy_ubuf_to_ubuf intrinsics, SetDeqScale with the int32 -> half Cast, Pad /
UnPad / Broadcast (BroadCast) with their tiling, Fill, and the L1 -> bias-table DataCopy with
DataCopyParams (half widened to float) that feeds Mmad's bias; misuse diagnosed at the kernel line.

Why: these forms made NPUKernelBench reference kernels and Ascend samples fail to compile (or be
rejected falsely) on cpu-sim; each must now compute what the NPU computes.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS

CAP = 4096


@pytest.fixture(scope="module")
def vec_exe(sim):
    return {
        np.float32: sim.build(KERNELS / "forms_vec.cpp", args=4),
        np.float16: sim.build(
            KERNELS / "forms_vec.cpp", args=4, defines={"DTYPE": "half", "PTYPE": "uint16_t"}
        ),
    }


def run_vec(sim, exe, dtype, op, x, pat=None, z=None, **kw):
    keys = [
        "n",
        "pattern",
        "repeat",
        "blk0",
        "blk1",
        "reduce",
        "mask",
        "rep1",
        "rep0",
        "rep2",
        "first",
    ]
    p = np.zeros(32, np.int32)
    p[0] = op
    for i, k in enumerate(keys, start=1):
        p[i] = kw.get(k, 0)
    bits = kw.get("bits", [0, 0])
    p[12:16] = np.array(bits, np.uint64).view(np.uint32).view(np.int32)
    ptype = np.uint32 if dtype == np.float32 else np.uint16
    y = np.zeros(CAP, ptype) if pat is None else pat.astype(ptype)
    zz = np.full(CAP, -7, dtype) if z is None else z.astype(dtype)
    run = sim.run(exe[dtype], 1, [x.astype(dtype), y, zz, p])
    return run, run.outputs[2], int(run.outputs[3][31])


def offsets(reps, per_rep, epb, blk, rep):
    """Element index of lane j of repeat r for block stride blk / repeat stride rep (in blocks)."""
    return np.array(
        [
            r * rep * epb + (j // epb) * blk * epb + j % epb
            for r in range(reps)
            for j in range(per_rep)
        ]
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("pattern", [1, 2, 3, 6, 7])
def test_gathermask_builtin_patterns(sim, vec_exe, dtype, pattern):
    x = np.arange(CAP) % 1000
    epr = 256 // np.dtype(dtype).itemsize
    reps = 3
    run, z, cnt = run_vec(sim, vec_exe, dtype, 0, x, repeat=reps, blk0=1, rep0=8, pattern=pattern)
    assert run.returncode == 0, run.stderr
    j = np.arange(epr)
    keep = {1: j % 2 == 0, 2: j % 2 == 1, 3: j % 4 == 0, 6: j % 4 == 3, 7: np.ones(epr, bool)}[
        pattern
    ]
    want = np.concatenate([x[r * epr : (r + 1) * epr][keep] for r in range(reps)]).astype(dtype)
    assert cnt == want.size
    np.testing.assert_array_equal(z[: want.size], want)
    assert (z[want.size :] == dtype(-7)).all()  # nothing written past rsvdCnt


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_gathermask_tensor_pattern_strided(sim, vec_exe, dtype):
    """Normal mode, 2 repeats, src0 repeat stride 4 blocks, each repeat its own pattern block."""
    rng = np.random.default_rng(3)
    es = np.dtype(dtype).itemsize
    epr, epb = 256 // es, 32 // es
    x = rng.integers(-50, 50, CAP)
    bits = rng.integers(0, 2, (2, epr)).astype(np.uint8)
    raw = np.zeros(2 * 32, np.uint8)  # pattern of repeat r at byte 32 r (src1RepeatStride 1)
    for r in range(2):
        raw[r * 32 : r * 32 + epr // 8] = np.packbits(bits[r], bitorder="little")
    pat = raw.view(np.uint32 if es == 4 else np.uint16)
    run, z, cnt = run_vec(
        sim,
        vec_exe,
        dtype,
        1,
        x,
        pat=np.pad(pat, (0, CAP - pat.size)),
        repeat=2,
        blk0=1,
        rep0=4,
        rep1=1,
    )
    assert run.returncode == 0, run.stderr
    idx = offsets(2, epr, epb, 1, 4)
    want = x[idx][bits.reshape(-1).astype(bool)].astype(dtype)
    assert cnt == want.size
    np.testing.assert_array_equal(z[: want.size], want)


def test_gathermask_counter_mode_masked_select(sim, vec_exe):
    """Counter mode, one repeat of 1000 elements (MaskedSelect style): the pattern bits are one
    contiguous bit mask, as a CompareScalar writes it."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=CAP).astype(np.float32)
    sel = rng.random(1000) < 0.3
    raw = np.packbits(sel, bitorder="little")
    pat = np.zeros(CAP * 4, np.uint8)
    pat[: raw.size] = raw
    run, z, cnt = run_vec(
        sim,
        vec_exe,
        np.float32,
        1,
        x,
        pat=pat.view(np.uint32)[:CAP],
        reduce=1,
        mask=1000,
        repeat=1,
        blk0=1,
        rep0=8,
        rep1=1,
    )
    assert run.returncode == 0, run.stderr
    want = x[:1000][sel]
    assert cnt == want.size
    np.testing.assert_array_equal(z[:cnt], want)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_copy_level0_strided_and_masked(sim, vec_exe, dtype):
    es = np.dtype(dtype).itemsize
    epr, epb = 256 // es, 32 // es
    x = (np.arange(CAP) % 2000).astype(dtype)
    # contiguous mask of 10 lanes, 3 repeats, src block stride 2, src repeat stride 16, dst compact
    run, z, _ = run_vec(
        sim, vec_exe, dtype, 2, x, mask=10, repeat=3, blk0=1, blk1=2, rep0=8, rep2=16
    )
    assert run.returncode == 0, run.stderr
    want = np.full(CAP, -7, dtype)
    lanes = [j for j in range(epr) if j < 10]
    for r in range(3):
        for j in lanes:
            want[r * 8 * epb + (j // epb) * epb + j % epb] = x[
                r * 16 * epb + (j // epb) * 2 * epb + j % epb
            ]
    np.testing.assert_array_equal(z, want)
    # bit mask: every third lane, 2 repeats, plain strides
    lanes = np.arange(epr) % 3 == 0
    bits = np.zeros(128, bool)
    bits[:epr] = lanes
    words = np.packbits(bits, bitorder="little").view(np.uint64)
    run, z, _ = run_vec(
        sim, vec_exe, dtype, 3, x, bits=list(words), repeat=2, blk0=1, blk1=1, rep0=8, rep2=8
    )
    assert run.returncode == 0, run.stderr
    want = np.full(CAP, -7, dtype)
    on = np.concatenate([lanes, lanes])
    want[: 2 * epr][on] = x[: 2 * epr][on]
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_brcb(sim, vec_exe, dtype):
    es = np.dtype(dtype).itemsize
    epb = 32 // es
    x = np.arange(CAP) % 500 + 1
    run, z, _ = run_vec(sim, vec_exe, dtype, 4, x, repeat=2, blk0=1, rep0=8)
    assert run.returncode == 0, run.stderr
    want = np.repeat(x[:16].astype(dtype), epb)
    np.testing.assert_array_equal(z[: 16 * epb], want)
    assert [e for e in run.report["timeline"] if e["op"] == "Brcb"][0]["pipe"] == "V"


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_create_vec_index(sim, vec_exe, dtype):
    x = np.zeros(CAP)
    run, z, _ = run_vec(sim, vec_exe, dtype, 5, x, n=300, first=5)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z[:300], (np.arange(300) + 5).astype(dtype))
    assert (z[300:] == dtype(-7)).all()
    epr = 256 // np.dtype(dtype).itemsize
    run, z, _ = run_vec(sim, vec_exe, dtype, 6, x, mask=epr, repeat=2, blk0=1, rep0=8, first=-3)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z[: 2 * epr], (np.arange(2 * epr) - 3).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_vcadd_intrinsic(sim, vec_exe, dtype):
    """The raw intrinsic, under the mask register, one sum per repeat into dst[r]."""
    epr = 256 // np.dtype(dtype).itemsize
    x = (np.arange(CAP) % 7).astype(dtype)
    run, z, _ = run_vec(sim, vec_exe, dtype, 7, x, mask=epr // 2, repeat=4)
    assert run.returncode == 0, run.stderr
    want = x[: 4 * epr].reshape(4, epr)[:, : epr // 2].astype(np.float64).sum(axis=1)
    np.testing.assert_array_equal(z[:4].astype(np.float64), want)
    assert any(e["op"] == "WholeReduceSum" and e["pipe"] == "V" for e in run.report["timeline"])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_vcadd_accumulates_into_acc_register(sim, vec_exe, dtype):
    """mode 1 with a null dst: the total of n elements (counter mode) read back by get_acc_val."""
    x = (np.arange(CAP) % 5).astype(dtype)
    run = sim.run(
        vec_exe[dtype],
        1,
        [
            x,
            np.zeros(CAP, np.uint32 if dtype == np.float32 else np.uint16),
            np.zeros(CAP, dtype),
            np.array([13, 700] + [0] * 30, np.int32),
        ],
    )
    assert run.returncode == 0, run.stderr
    raw = np.array([run.outputs[3][30]], np.int32).view(np.uint32)[0]
    got = (
        np.array([raw], np.uint32).view(np.float32)[0]
        if dtype == np.float32
        else np.array([raw & 0xFFFF], np.uint16).view(np.float16)[0]
    )
    assert float(got) == float(x[:700].astype(np.float64).sum())


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_vector_dup_and_copy_ubuf_intrinsics(sim, vec_exe, dtype):
    epr = 256 // np.dtype(dtype).itemsize
    x = (np.arange(CAP) % 300).astype(dtype)
    run, z, _ = run_vec(sim, vec_exe, dtype, 8, x, mask=epr, repeat=3, first=9)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z[: 3 * epr], np.full(3 * epr, 9, dtype))
    assert (z[3 * epr :] == dtype(-7)).all()
    # 4 bursts of 2 blocks, source gap 1 block, destination gap 0
    run, z, _ = run_vec(sim, vec_exe, dtype, 9, x, n=4, blk0=2, blk1=1, rep0=0)
    assert run.returncode == 0, run.stderr
    epb = 32 // np.dtype(dtype).itemsize
    want = np.concatenate([x[i * 3 * epb : i * 3 * epb + 2 * epb] for i in range(4)])
    np.testing.assert_array_equal(z[: 8 * epb], want)


@pytest.mark.parametrize(
    ("op", "code", "text", "call"),
    [
        (10, "BAD_PARAM", "must not be the same", "Brcb(lx, lx"),
        (11, "BAD_PARAM", "src1Pattern", "(uint8_t)9"),
        (12, "BAD_PARAM", "does not point into a Unified Buffer", "vcadd((T *)local"),
    ],
)
def test_vector_form_misuse(sim, vec_exe, op, code, text, call):
    run, _, _ = run_vec(sim, vec_exe, np.float32, op, np.zeros(CAP))
    assert run.returncode == 3
    f = [f for f in run.report["findings"] if f["severity"] == "error"][0]
    assert f["code"] == code and text in f["message"]
    assert call in (KERNELS / "forms_vec.cpp").read_text().splitlines()[f["line"] - 1]


# ---------------------------------------------------------------------------- SetDeqScale, Pad, Broadcast
@pytest.fixture(scope="module")
def misc_exe(sim):
    return sim.build(KERNELS / "forms_misc.cpp", args=3)


def run_misc(sim, exe, op, x_bytes, a=0, b=0, c=0, left=0, right=0, pad=0, tmp=0, scale=1.0):
    p = np.zeros(32, np.int32)
    p[:8] = [op, a, b, c, left, right, pad, tmp]
    p[8] = np.array([scale], np.float32).view(np.int32)[0]
    x = np.zeros(CAP * 4, np.uint8)
    x[: x_bytes.size] = x_bytes
    z = np.full(CAP * 4, 0xAB, np.uint8)
    run = sim.run(exe, 1, [x, z, p])
    return run, run.outputs[1]


def test_setdeqscale_scales_int32_to_half_cast(sim, misc_exe):
    src = np.arange(-100, 156, dtype=np.int32) * 3
    run, z = run_misc(sim, misc_exe, 0, src.view(np.uint8), a=256, scale=0.25)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z.view(np.float16)[:256], (src * 0.25).astype(np.float16))
    run, z = run_misc(
        sim, misc_exe, 1, src.view(np.uint8), a=256
    )  # no SetDeqScale: plain conversion
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z.view(np.float16)[:256], src.astype(np.float16))


def test_setdeqscale_vdeq_table(sim, misc_exe):
    run, z = run_misc(sim, misc_exe, 9, np.zeros(4, np.uint8), scale=0.5)
    assert run.returncode == 0, run.stderr
    w = z.view(np.uint64)[:16]
    i = np.arange(16)
    np.testing.assert_array_equal(
        (w & 0xFFFFFFFF).astype(np.uint32).view(np.float32), 0.5 * (i + 1)
    )
    off = ((w >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
    np.testing.assert_array_equal(np.where(off >= 256, off - 512, off), i - 8)
    np.testing.assert_array_equal((w >> np.uint64(46)) & np.uint64(1), i % 2)


def test_pad_unaligned_width_left_and_right(sim, misc_exe):
    """Scenario 1: 16 x 13 half rows stored back to back (416 bytes: a whole number of blocks, as
    the API requires) -> 16 x 16 rows with 1 left and 2 right columns of the pad value."""
    x = np.arange(16 * 13, dtype=np.float16)
    run, z = run_misc(
        sim, misc_exe, 2, x.view(np.uint8), a=16, b=13, c=13, left=1, right=2, pad=321, tmp=64
    )
    assert run.returncode == 0, run.stderr
    out = z.view(np.float16)[: 16 * 16].reshape(16, 16)
    want = np.pad(
        np.arange(16 * 13, dtype=np.float16).reshape(16, 13), ((0, 0), (1, 2)), constant_values=321
    )
    np.testing.assert_array_equal(out, want)


def test_pad_aligned_width_fills_redundant_columns(sim, misc_exe):
    """Scenario 2: 8 x 16 half, the last 3 columns redundant -> they become the pad value."""
    x = np.arange(8 * 16, dtype=np.float16)
    run, z = run_misc(sim, misc_exe, 2, x.view(np.uint8), a=8, b=16, c=13, right=3, pad=-1)
    assert run.returncode == 0, run.stderr
    want = x.reshape(8, 16).copy()
    want[:, 13:] = -1
    np.testing.assert_array_equal(z.view(np.float16)[:128].reshape(8, 16), want)
    run, _ = run_misc(sim, misc_exe, 8, x.view(np.uint8), a=8, b=16, c=13, left=1, right=2)
    assert run.returncode == 3 and "right padding only" in run.stderr


def test_unpad_drops_right_columns(sim, misc_exe):
    x = np.arange(8 * 16, dtype=np.float16)
    run, z = run_misc(sim, misc_exe, 3, x.view(np.uint8), a=8, b=16, right=3, tmp=64)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(
        z.view(np.float16)[: 8 * 13], x.reshape(8, 16)[:, :13].reshape(-1)
    )


@pytest.mark.parametrize(("op", "m", "k"), [(4, 5, 20), (4, 16, 16), (5, 6, 32), (6, 37, 0)])
def test_broadcast(sim, misc_exe, op, m, k):
    rng = np.random.default_rng(op + m)
    src = rng.integers(-20, 20, 64).astype(np.float16)
    run, z = run_misc(sim, misc_exe, op, src.view(np.uint8), a=m, b=k, tmp=m * 32)
    assert run.returncode == 0, run.stderr
    out = z.view(np.float16)
    if op == 4:
        want = np.repeat(src[:m, None], k, axis=1)
    elif op == 5:
        want = np.broadcast_to(src[None, :k], (m, k))
    else:
        want = np.full(m, src[0])
    np.testing.assert_array_equal(out[: want.size], want.reshape(-1))


def test_broadcast_in_place_only_along_rows(sim, misc_exe):
    """[1, k] -> [m, k] with dstLocal == srcLocal reads only the first row, which it keeps (the
    documented Copy step; NPUKernelBench's RmsNorm answers broadcast gamma so); [m, 1] -> [m, k]
    in place would read elements it has already overwritten and is refused."""
    src = np.arange(64, dtype=np.float16)
    run, z = run_misc(sim, misc_exe, 20, src.view(np.uint8), a=6, b=32)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z.view(np.float16)[: 6 * 32], np.tile(src[:32], 6))
    run, _ = run_misc(sim, misc_exe, 21, src.view(np.uint8), a=4, b=16, tmp=4 * 32)
    assert run.returncode == 3
    f = [f for f in run.report["findings"] if f["severity"] == "error"][0]
    assert f["code"] == "BAD_PARAM" and "overlapping" in f["message"]


def test_fused_mul_add_multiplies_into_dst_and_adds(sim, misc_exe):
    x = (np.arange(128) % 13 - 6).astype(np.float16)
    run, z = run_misc(sim, misc_exe, 22, x.view(np.uint8))
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z.view(np.float16)[:64], x[:64] * np.float16(2) + x[64:128])


def test_broadcast_tmp_too_small(sim, misc_exe):
    run, _ = run_misc(sim, misc_exe, 7, np.zeros(4, np.uint8), a=8, b=8, tmp=32)
    assert run.returncode == 3
    f = [f for f in run.report["findings"] if f["severity"] == "error"][0]
    assert f["code"] == "LOCAL_OOB" and "GetBroadCastMaxMinTmpSize" in f["message"]


# ---------------------------------------------------------------------------- cube: Fill, L1 -> bias table
@pytest.fixture(scope="module")
def cube_exe(sim):
    return sim.build(KERNELS / "forms_cube.cpp", args=5, defines={"KERNEL_MODE": "AIC_MODE"})


def run_cube(sim, exe, op, x, bias):
    p = np.array([op, 0, 0, 0, 0, 0, 0, 0], np.int32)
    bufs = [x, bias, np.zeros(256, np.float32), np.zeros(512, np.float16), p]
    return sim.run(exe, 1, bufs)


def test_fill_and_half_bias_through_bias_table(sim, cube_exe):
    rng = np.random.default_rng(21)
    x = rng.uniform(-1, 1, 1024).astype(np.float16)
    bias = rng.uniform(-4, 4, 64).astype(np.float16)
    run = run_cube(sim, cube_exe, 0, x, bias)
    assert run.returncode == 0, run.stderr
    assert run.report["findings"] == [], run.stderr
    # ones (16 x 16) @ B, B in Zn order: element (k, n) = x[n * 16 + k]; plus the widened bias
    col = x[:256].astype(np.float64).reshape(16, 16).sum(axis=1)
    want = np.tile(col, (16, 1)) + bias[:16].astype(np.float64)
    np.testing.assert_allclose(run.outputs[2].reshape(16, 16), want, rtol=1e-5, atol=1e-4)
    l1 = x[:512].copy().reshape(-1, 16)  # 32-byte blocks of 16 halves
    for r in range(3):
        l1[r * 3 : r * 3 + 2] = 5
    np.testing.assert_array_equal(run.outputs[3], l1.reshape(-1))
    ops = {e["op"]: e["pipe"] for e in run.report["timeline"]}
    assert ops["DataCopy"] in ("MTE1", "MTE2", "MTE3")
    assert ops["InitConstValue"] in ("MTE1", "MTE2")


def test_bias_table_copy_rejects_unsupported_dtype(sim, cube_exe):
    run = run_cube(sim, cube_exe, 1, np.zeros(1024, np.float16), np.zeros(64, np.float16))
    assert run.returncode == 3
    f = [f for f in run.report["findings"] if f["severity"] == "error"][0]
    assert f["code"] == "BAD_PARAM" and "BiasTable" in f["message"]


# ---------------------------------------------------------------------------- Matmul with C in VECIN
@pytest.fixture(scope="module")
def mm_ub_exe(sim):
    return sim.build(KERNELS / "forms_mm.cpp", args=4, defines={"KERNEL_MODE": "MIX_MODE"})


@pytest.mark.parametrize("mode", [0, 1])
def test_matmul_c_in_vecin(sim, mm_ub_exe, mode):
    rng = np.random.default_rng(30 + mode)
    m, k, n = 40, 64, 48
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    p = np.array([m, k, n, 16, 32, 32, mode, 0], np.int32)
    run = sim.run(mm_ub_exe, 1, [a, b, np.zeros((m, n), np.float32), p])
    assert run.returncode == 0, run.stderr
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(run.outputs[2], want, rtol=1e-5, atol=1e-4)
    assert not [f for f in run.report["findings"] if f["severity"] == "error"]
    pipes = {e["pipe"] for e in run.report["timeline"] if e["op"].startswith("Matmul")}
    assert {"M", "FIX", "MTE2"} <= pipes  # cube work, then the workspace -> UB copy


# ---------------------------------------------------------------------------- high-level math
def math_input(dtype, first, second):
    """x (first) in the first half of the 16 KiB input, a second operand in the second half."""
    raw = np.zeros(CAP * 4, np.uint8)
    a = np.asarray(first, dtype).view(np.uint8)
    b = np.asarray(second, dtype).view(np.uint8)
    raw[: a.size] = a
    raw[CAP * 2 : CAP * 2 + b.size] = b
    return raw


@pytest.mark.parametrize(
    ("op", "dtype", "fn", "lo", "hi"),
    [
        (10, np.float16, lambda x: 1 / (1 + np.exp(-x)), -6, 6),
        (11, np.float32, np.tanh, -4, 4),
        (13, np.float32, np.log, 0.01, 50),
        (14, np.float16, np.log2, 0.01, 50),
        (15, np.float32, np.log10, 0.01, 50),
    ],
)
def test_high_level_unary_math(sim, misc_exe, op, dtype, fn, lo, hi):
    rng = np.random.default_rng(op)
    x = rng.uniform(lo, hi, 300).astype(dtype)
    run, z = run_misc(sim, misc_exe, op, math_input(dtype, x, []), a=300, tmp=1024)
    assert run.returncode == 0, run.stderr
    got = z.view(dtype)[:300].astype(np.float64)
    tol = 2e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(got, fn(x.astype(np.float64)), rtol=tol, atol=tol)
    assert (z.view(dtype)[300:310].view(np.uint8) == 0xAB).all()  # count respected


def test_sign_whole_tensor(sim, misc_exe):
    x = np.array([-3, 0, 2.5, -0.0, 7] * 10, np.float16)
    run, z = run_misc(sim, misc_exe, 12, math_input(np.float16, x, []))
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z.view(np.float16)[:50], np.sign(x))


def test_power_forms(sim, misc_exe):
    rng = np.random.default_rng(40)
    base = rng.uniform(0.1, 3, 200).astype(np.float32)
    expo = rng.uniform(-2, 2, 200).astype(np.float32)
    run, z = run_misc(sim, misc_exe, 16, math_input(np.float32, base, expo), a=200)
    assert run.returncode == 0, run.stderr
    np.testing.assert_allclose(z.view(np.float32)[:200], base.astype(np.float64) ** expo, rtol=1e-5)
    run, z = run_misc(sim, misc_exe, 17, math_input(np.float32, base, []), a=200, tmp=64, scale=1.5)
    assert run.returncode == 0, run.stderr
    np.testing.assert_allclose(z.view(np.float32)[:200], base.astype(np.float64) ** 1.5, rtol=1e-5)
    e = np.arange(-2, 14, dtype=np.int32)  # int32: exact integer powers, 3 ** e (negative: 0)
    run, z = run_misc(sim, misc_exe, 18, math_input(np.int32, [], e), a=16, b=3)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z.view(np.int32)[:16], np.where(e < 0, 0, 3 ** np.maximum(e, 0)))
    hb, he = base.astype(np.float16), expo.astype(np.float16)
    run, z = run_misc(sim, misc_exe, 19, math_input(np.float16, hb, he), a=200, tmp=64)
    assert run.returncode == 0, run.stderr
    want = (hb.astype(np.float64) ** he.astype(np.float64)).astype(np.float16)
    np.testing.assert_allclose(z.view(np.float16)[:200].astype(np.float64), want, rtol=2e-3)
