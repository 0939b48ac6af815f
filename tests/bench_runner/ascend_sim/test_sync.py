"""Synchronisation: flags, barriers, SyncAll across concurrently running cores, atomics, and
deterministic deadlock detection instead of a hang.

Why: a kernel that waits for a flag nobody sets hangs the NPU; the emulator has to say so at
once, with the kernel line, rather than time out.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from .simtools import KERNELS

N = 256


@pytest.fixture(scope="module")
def sy(sim):
    return sim.build(KERNELS / "sync.cpp", args=4)


def go(sim, exe, op, cores=4, env=None):
    rng = np.random.default_rng(op)
    x = rng.uniform(-1, 1, N * cores).astype(np.float32)
    p = np.zeros(16, np.int32)
    p[0] = op
    run = sim.run(
        exe,
        cores,
        [x, np.zeros(N * cores, np.float32), np.zeros(8 * cores, np.float32), p],
        env=env,
    )
    return x, run


def test_flags_and_barriers(sim, sy):
    x, run = go(sim, sy, 0)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(run.outputs[1], x * 2)
    assert run.report["findings"] == []
    tl = [e for e in run.report["timeline"] if e["core"] == 0]
    copy_in = next(e for e in tl if e["pipe"] == "MTE2")
    muls = next(e for e in tl if e["op"] == "Muls")
    copy_out = next(e for e in tl if e["pipe"] == "MTE3")
    assert copy_in["end"] <= muls["start"] and muls["end"] <= copy_out["start"]


@pytest.mark.parametrize("cores", [2, 8, 48])
def test_sync_all(sim, sy, cores):
    x, run = go(sim, sy, 1, cores)
    assert run.returncode == 0, run.stderr
    assert abs(run.outputs[1][0] - x.astype(np.float64).sum()) < 1e-3
    # Timing: core 0's read-back after the barrier starts only once every core's write before
    # the barrier has finished.
    tl = run.report["timeline"]
    writes = [e["end"] for e in tl if e["pipe"] == "MTE3"]
    read_back = [e for e in tl if e["core"] == 0 and e["pipe"] == "MTE2"][-1]
    assert len(writes) == cores and read_back["start"] >= max(writes)


def test_atomic_add(sim, sy):
    x, run = go(sim, sy, 2, 6)
    assert run.returncode == 0, run.stderr
    want = x.reshape(6, N).astype(np.float32).sum(0)
    # Cores are threads, so the six float32 adds land in any order: allow that rounding (a few
    # ulps of the summands) but nothing like a missing or doubled contribution.
    atol = 8 * np.finfo(np.float32).eps * np.abs(x.reshape(6, N)).sum(0).max()
    np.testing.assert_allclose(run.outputs[1][:N], want, rtol=1e-5, atol=atol)


FINDING = re.compile(
    r"^\[(ERROR|WARNING)\]\[Core_(\d+)\]\[([^:\]]+):(\d+)\]\[(\w+)\] ([A-Z_]+): .+", re.M
)


def test_waitflag_without_setflag_is_deadlock(sim, sy):
    _, run = go(sim, sy, 3, 2)
    assert run.returncode == 3
    m = FINDING.search(run.stderr)
    assert m and m.group(1) == "ERROR" and m.group(6) == "DEADLOCK" and m.group(5) == "WaitFlag"
    assert m.group(3).endswith("kernel.cpp")
    src = (KERNELS / "sync.cpp").read_text().splitlines()
    assert "WaitFlag<HardEvent::MTE2_V>(EVENT_ID1)" in src[int(m.group(4)) - 1]
    f = run.report["findings"][0]
    assert f["code"] == "DEADLOCK" and f["severity"] == "error" and f["line"] == int(m.group(4))


def test_sync_all_not_reached_is_deadlock(sim, sy):
    _, run = go(sim, sy, 4, 4, env={"ASCEND_SIM_TIMEOUT_S": "20"})
    assert run.returncode == 3
    assert run.codes("error") == ["DEADLOCK"]
    assert "finished the kernel without reaching it" in run.stderr


def test_sync_all_beyond_physical_cores_is_deadlock(sim, sy):
    _, run = go(sim, sy, 1, 49)  # 910B2 has 48 vector cores: blocks would run in waves
    assert run.returncode == 3
    assert "DEADLOCK" in run.codes("error")
    assert "physical vector cores" in run.stderr


def test_unwaited_flag_warns(sim, sy):
    _, run = go(sim, sy, 5, 1)
    assert run.returncode == 0
    assert run.codes("warning") == ["SYNC_MISMATCH"]
    assert "[WARNING][Core_0]" in run.stderr


def test_pipe_barrier_s_is_bad_param(sim, sy):
    _, run = go(sim, sy, 6, 1)
    assert run.returncode == 3 and run.codes("error") == ["BAD_PARAM"]
