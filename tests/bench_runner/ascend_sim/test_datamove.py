"""Data movement and tensor accessors against numpy: strided DataCopy, DataCopyPad with padding,
UB->UB copies, queue binding, and the LocalTensor/GlobalTensor scalar API.

Why: the 32-byte block units, gaps and padding rules are where hand-written kernels go wrong;
the emulator must move exactly the bytes the hardware would.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS

CAP = 2048


@pytest.fixture(scope="module")
def dm(sim):
    return sim.build(KERNELS / "datamove.cpp", args=3)


def go(sim, exe, op, x=None):
    x = np.arange(CAP, dtype=np.float32) if x is None else x
    p = np.zeros(16, np.int32)
    p[0] = op
    run = sim.run(exe, 1, [x, np.zeros(CAP, np.float32), p])
    assert run.returncode == 0, run.stderr
    return x, run


def test_datacopy_params_in(sim, dm):
    x, run = go(sim, dm, 0)
    want = np.full(CAP, -1, np.float32)
    for i in range(4):  # 16 floats per burst; GM step 24 floats, UB step 40 floats
        want[i * 40 : i * 40 + 16] = x[i * 24 : i * 24 + 16]
    np.testing.assert_array_equal(run.outputs[1], want)


def test_datacopy_params_out(sim, dm):
    x, run = go(sim, dm, 1)
    want = np.zeros(CAP, np.float32)
    for i in range(3):  # 8 floats per burst; UB step 24, GM step 16
        want[i * 16 : i * 16 + 8] = x[i * 24 : i * 24 + 8]
    np.testing.assert_array_equal(run.outputs[1], want)


def test_datacopy_pad_in(sim, dm):
    x, run = go(sim, dm, 2)
    want = np.full(CAP, -1, np.float32)
    for i in range(3):  # each UB row: 1 pad + 5 data + 2 pad = 8 floats = 32 bytes
        want[i * 8] = 9
        want[i * 8 + 1 : i * 8 + 6] = x[i * 7 : i * 7 + 5]
        want[i * 8 + 6 : i * 8 + 8] = 9
    np.testing.assert_array_equal(run.outputs[1], want)
    assert run.report["findings"] == []


def test_datacopy_pad_out(sim, dm):
    x, run = go(sim, dm, 3)
    want = np.zeros(CAP, np.float32)
    for i in range(3):  # UB rows are 8 floats (5 rounded up to 32 bytes); GM rows 5 + gap 3
        want[i * 8 : i * 8 + 5] = x[i * 8 : i * 8 + 5]
    np.testing.assert_array_equal(run.outputs[1], want)


def test_ub_to_ub(sim, dm):
    x, run = go(sim, dm, 4)
    want = np.zeros(CAP, np.float32)
    want[:256] = x[64:320]
    want[512:520] = x[0:8]
    want[520:528] = x[16:24]
    np.testing.assert_array_equal(run.outputs[1], want)
    assert {e["pipe"] for e in run.report["timeline"] if e["op"] == "DataCopy"} == {
        "MTE2",
        "V",
        "MTE3",
    }


def test_scalar_accessors(sim, dm):
    x = np.arange(CAP, dtype=np.float32) + 0.5
    x[2] = -3.0
    _, run = go(sim, dm, 5, x)
    out = run.outputs[1]
    assert out[0] == x[8] + x[1]
    assert out[1] == CAP - 8 and out[2] == CAP and out[3] == 2 * CAP and out[4] == CAP * 4
    assert out[5] == x[7] * 2
    assert out[6] == x[10]
    assert out[7] == CAP - 100
    assert out[8] == 1  # sign bit of -3.0 through ReinterpretCast<uint32_t>
    assert out[CAP - 1] == 42.0


def test_queue_bind_copy_through(sim, dm):
    x, run = go(sim, dm, 6)
    np.testing.assert_array_equal(run.outputs[1], x)
    assert run.report["findings"] == []


def test_queue_depth_two(sim, dm):
    x, run = go(sim, dm, 7)
    np.testing.assert_array_equal(run.outputs[1][:128], x[:128] + x[128:256])


INIT_GM_KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer((__gm__ float*)z, 1000);
    InitGlobalMemory(gz, 600, 2.5f);
    InitOutput(gz[600], 400, -1.0f);
}
"""


def test_init_global_memory_fills_gm_and_is_charged(sim):
    """Issue #31: InitGlobalMemory (and InitOutput, its earlier name, in NPUKernelBench's answers)
    fill GM with a value: a duplicate in UB and MTE3 copies out, charged and counted as writes."""
    import numpy as np

    exe = sim.build(INIT_GM_KERNEL, args=2)
    run = sim.run(exe, 1, [np.zeros(8, np.float32), np.zeros(1000, np.float32)])
    assert run.returncode == 0, run.stderr
    assert (run.outputs[1][:600] == 2.5).all() and (run.outputs[1][600:] == -1.0).all()
    pipes = {(e["op"], e["pipe"]) for e in run.report["timeline"]}
    assert {("InitGlobalMemory", "V"), ("InitGlobalMemory", "MTE3"), ("InitOutput", "MTE3")} <= pipes
    assert not run.report.get("unaccounted_gm_bytes"), run.report.get("unaccounted_gm_bytes")
