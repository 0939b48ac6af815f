"""Cross-core flag modes 0 and 1 of CrossCoreSetFlag / CrossCoreWaitFlag in a MIX launch: mode 1
joins the two AIVs of a group, mode 0 every core of a kind (all AIVs, or all AICs); the waiters'
clocks follow the last set; a core that never sets is a DEADLOCK naming the waiting line; mode 1
on the AIC is rejected.

Why: MIX kernels (flash attention, fused matmul epilogues) synchronise vector cores this way; a
missing set hangs the NPU, so the emulator must report it instead of passing or hanging.
"""

from __future__ import annotations

import numpy as np
import pytest

from .simtools import KERNELS


@pytest.fixture(scope="module")
def xcore(sim):
    return sim.build(KERNELS / "xcore.cpp", args=3, defines={"KERNEL_MODE": "MIX_MODE"})


def run_x(sim, exe, op, blocks):
    p = np.zeros(8, np.int32)
    p[0] = op
    return sim.run(exe, blocks, [np.zeros(64, np.int32), np.zeros(64, np.int32), p])


def wait_line():
    src = (KERNELS / "xcore.cpp").read_text().splitlines()
    return next(i for i, ln in enumerate(src, 1) if "CrossCoreWaitFlag(7);" in ln)


def test_mode1_pairs_the_aivs_of_a_group(sim, xcore):
    run = run_x(sim, xcore, 0, 3)
    assert run.returncode == 0, run.stderr
    vals = (np.arange(6) + 1) * 10
    want = np.repeat(vals.reshape(3, 2).sum(1), 2)
    np.testing.assert_array_equal(run.outputs[1][:6], want)
    # each AIV 0 waited for its busy sibling: its clock ends after the sibling's vector work
    aiv = {x["block_idx"]: x for x in run.report["cores"] if x["core_type"] == "AIV"}
    for b in range(3):
        assert aiv[2 * b]["cycles"] >= aiv[2 * b + 1]["pipes"]["V"]
    assert "SYNC_MISMATCH" not in run.codes("warning"), run.stderr


def test_mode0_joins_all_aivs(sim, xcore):
    run = run_x(sim, xcore, 1, 3)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(
        run.outputs[1][:6], np.full(6, sum((i + 1) * 10 for i in range(6)))
    )
    aiv = [x for x in run.report["cores"] if x["core_type"] == "AIV"]
    busy = max(x["pipes"]["V"] for x in aiv)
    assert all(x["cycles"] >= busy for x in aiv)


def test_mode0_joins_all_aics(sim, xcore):
    run = run_x(sim, xcore, 2, 4)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(run.outputs[1][32:36], np.full(4, 100))


@pytest.mark.parametrize("op", [3, 4])
def test_missing_set_is_a_deadlock(sim, xcore, op):
    run = run_x(sim, xcore, op, 2)
    assert run.returncode == 3, run.stderr
    f = [x for x in run.report["findings"] if x["code"] == "DEADLOCK"]
    assert f and f[0]["api"] == "CrossCoreWaitFlag", run.stderr
    assert f[0]["line"] == wait_line()


def test_mode1_on_the_aic_is_rejected(sim, xcore):
    run = run_x(sim, xcore, 5, 1)
    assert run.returncode == 3
    f = [x for x in run.report["findings"] if x["code"] == "BAD_PARAM"]
    assert f and "modeId 1" in f[0]["message"], run.stderr


def test_syncall_false_joins_aics_and_aivs(sim, xcore):
    run = run_x(sim, xcore, 6, 3)
    assert run.returncode == 0, run.stderr
    out = run.outputs[1]
    np.testing.assert_array_equal(out[:6], np.full(6, 100 + 200 + 300))  # AIVs saw every AIC's slot
    np.testing.assert_array_equal(out[32:35], np.full(3, sum(range(1, 7))))  # AICs saw every AIV's
    ends = [x["cycles"] for x in run.report["cores"]]
    busy = max(x["pipes"]["V"] for x in run.report["cores"])
    assert min(ends) >= busy  # every core left the barrier after the busiest AIV reached it


def test_syncall_false_missing_aic_is_a_deadlock(sim, xcore):
    run = run_x(sim, xcore, 7, 2)
    assert run.returncode == 3, run.stderr
    f = [x for x in run.report["findings"] if x["code"] == "DEADLOCK"]
    assert f and f[0]["api"] == "SyncAll", run.stderr


def test_syncall_aiv_only_on_the_aic_is_rejected(sim, xcore):
    run = run_x(sim, xcore, 8, 1)
    assert run.returncode == 3
    f = [x for x in run.report["findings"] if x["code"] == "UNSUPPORTED"]
    assert f and "SyncAll<false>" in f[0]["message"], run.stderr


def test_mode1_set_by_one_aiv_only_is_reported(sim, xcore):
    run = run_x(sim, xcore, 9, 2)
    assert run.returncode == 0, run.stderr
    assert run.codes("warning") == ["SYNC_MISMATCH"], run.stderr  # one finding per launch line
    assert "CrossCoreSetFlag<1>(6) was set by one AIV only" in run.stderr
