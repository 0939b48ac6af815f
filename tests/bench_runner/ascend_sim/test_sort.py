"""The vector core's sorting APIs (Atlas A2 layout) against numpy: Concat + Sort (full and per
32-element repeat) + Extract, MrgSort of sorted lists (both signatures, exhausted mode), half and
float; lengths that are not a multiple of 32 padded with -inf as the API requires; misuse (a
too-small tmp buffer, an unsorted MrgSort list) diagnosed at the kernel line.

Why: public kernels (TopK-like operators, NMS) build on Sort / MrgSort; the emulator must give the
documented (score, index) structures in descending order with stable ties.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS


@pytest.fixture(scope="module")
def sort_exe(sim):
    return {
        np.float32: sim.build(KERNELS / "sort.cpp", args=6),
        np.float16: sim.build(KERNELS / "sort.cpp", args=6, defines={"T": "half"}),
    }


def run_sort(sim, exe, dtype, op, x):
    n = x.size
    p = np.zeros(8, np.int32)
    p[:2] = [op, n // 32]
    ix = np.arange(n, dtype=np.uint32)
    bufs = [
        x.astype(dtype),
        ix,
        np.zeros(n * 2, np.float32),
        np.zeros(n, dtype),
        np.zeros(n, np.uint32),
        p,
    ]
    return sim.run(exe[dtype], 1, bufs)


def structs(raw, dtype):
    """(scores, indices) of the 8-byte structures; half: the 2 bytes after the score are reserved (0)."""
    b = raw.view(np.uint8).reshape(-1, 8)
    if dtype == np.float16:
        assert not b[:, 2:4].any()
        score = b[:, :2].copy().view(np.float16)[:, 0]
    else:
        score = b[:, :4].copy().view(np.float32)[:, 0]
    return score, b[:, 4:].copy().view(np.uint32)[:, 0]


def padded(rng, real, dtype):
    """Small integers (ties happen) padded with -inf up to a multiple of 32."""
    n = -(-real // 32) * 32
    x = np.full(n, -np.inf, np.float64)
    x[:real] = rng.integers(-15, 15, real)
    return x.astype(dtype)


def stable_desc(x):
    return np.argsort(-x.astype(np.float64), kind="stable")


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_full_sort_and_extract(sim, sort_exe, dtype):
    rng = np.random.default_rng(1)
    x = padded(rng, 83, dtype)  # 83 real scores, 96 with the padding
    run = run_sort(sim, sort_exe, dtype, 0, x)
    assert run.returncode == 0, run.stderr
    order = stable_desc(x)
    score, index = structs(run.outputs[2], dtype)
    np.testing.assert_array_equal(index, order)
    np.testing.assert_array_equal(score, x[order])
    np.testing.assert_array_equal(run.outputs[3], x[order])  # Extract
    np.testing.assert_array_equal(run.outputs[4], order)
    assert [e for e in run.report["timeline"] if e["op"] == "Sort"][0]["pipe"] == "V"


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_sort_per_repeat(sim, sort_exe, dtype):
    x = padded(np.random.default_rng(2), 64, dtype)
    run = run_sort(sim, sort_exe, dtype, 1, x)
    assert run.returncode == 0, run.stderr
    score, index = structs(run.outputs[2], dtype)
    for r in range(2):  # each 32-element repeat sorted on its own
        order = stable_desc(x[r * 32 : (r + 1) * 32]) + r * 32
        np.testing.assert_array_equal(index[r * 32 : (r + 1) * 32], order)
        np.testing.assert_array_equal(score[r * 32 : (r + 1) * 32], x[order])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_mrgsort_four_lists(sim, sort_exe, dtype):
    x = padded(np.random.default_rng(3), 120, dtype)
    run = run_sort(sim, sort_exe, dtype, 2, x)
    assert run.returncode == 0, run.stderr
    order = stable_desc(x)  # merged lists: ties keep the list order, lists are in index order
    score, index = structs(run.outputs[2], dtype)
    np.testing.assert_array_equal(index, order)
    np.testing.assert_array_equal(score, x[order])
    np.testing.assert_array_equal(run.outputs[4], order)


def test_mrgsort_exhausted_suspension(sim, sort_exe):
    x = padded(np.random.default_rng(4), 64, np.float32)
    run = run_sort(sim, sort_exe, np.float32, 3, x)
    assert run.returncode == 0, run.stderr
    a = stable_desc(x[:32])
    b = (stable_desc(x[32:64]) + 32)[:16]  # the first 16 structures of the second sorted repeat
    la, lb = list(a), list(b)
    want = []
    while la and lb:  # stops as soon as one list runs out
        want.append(la.pop(0) if x[la[0]] >= x[lb[0]] else lb.pop(0))
    score, index = structs(run.outputs[2], np.float32)
    np.testing.assert_array_equal(index[: len(want)], want)
    assert not score[len(want) :].any()
    assert list(run.outputs[5][4:]) == [32 - len(la), 16 - len(lb), 0, 0]


def kernel_line(text):
    src = (KERNELS / "sort.cpp").read_text().splitlines()
    return next(i for i, ln in enumerate(src, 1) if text in ln)


def test_sort_tmp_too_small(sim, sort_exe):
    run = run_sort(sim, sort_exe, np.float32, 4, np.zeros(64, np.float32))
    assert run.returncode == 3
    f = [x for x in run.report["findings"] if x["code"] == "LOCAL_OOB"]
    assert f and f[0]["api"] == "Sort" and "GetSortTmpSize" in f[0]["message"]
    assert f[0]["line"] == kernel_line("Sort<T, true>(ld, lc, li, lt, R);")


def test_mrgsort_unsorted_list(sim, sort_exe):
    run = run_sort(sim, sort_exe, np.float32, 5, np.zeros(64, np.float32))
    assert run.returncode == 3
    f = [x for x in run.report["findings"] if x["code"] == "BAD_PARAM"]
    assert f and f[0]["api"] == "MrgSort" and "descending" in f[0]["message"]


def test_sort_unpadded_length(sim):
    """50 scores in a 50-element buffer: Sort works on whole 32-element repeats, so the buffer
    must be padded to 64; the emulator names the short operand (a warning: inside the Unified
    Buffer the NPU reads on into the next buffer, so the run goes on as there)."""
    src = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> c, i, d, t;
    pipe.InitBuffer(c, 50 * 4); pipe.InitBuffer(i, 64 * 4); pipe.InitBuffer(d, 64 * 8); pipe.InitBuffer(t, 64 * 8);
    LocalTensor<float> lc = c.Get<float>(), ld = d.Get<float>(), lt = t.Get<float>();
    LocalTensor<uint32_t> li = i.Get<uint32_t>();
    Duplicate(lc, 1.0f, 50);
    Duplicate(li, 0u, 64);
    Sort<float, true>(ld, lc, li, lt, 2);  /*HERE*/
}
"""
    exe = sim.build(src, args=2)
    run = sim.run(exe, 1, [np.zeros(8, np.float32), np.zeros(8, np.float32)])
    assert run.returncode == 0, run.stderr
    f = next(f for f in run.report["findings"] if f["code"] == "LOCAL_OOB")
    assert f["api"] == "Sort" and "concatLocal" in f["message"] and f["severity"] == "warning", f
    assert f["line"] == next(i for i, ln in enumerate(src.splitlines(), 1) if "/*HERE*/" in ln)
