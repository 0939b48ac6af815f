"""The classic double-buffered half-precision add_custom kernel, end to end.

It is the kernel every Ascend C tutorial starts from, so if it compiles unchanged, runs on 8
emulated cores, matches numpy bit for bit and produces a sane report, the core plumbing works.
"""

from __future__ import annotations

import numpy as np

from .simtools import KERNELS

TOTAL = 8 * 2048


def test_add_custom_matches_numpy(sim):
    exe = sim.build(KERNELS / "add_custom.cpp", kernel_name="add_custom", args=3)
    rng = np.random.default_rng(0)
    x = rng.uniform(-100, 100, TOTAL).astype(np.float16)
    y = rng.uniform(-100, 100, TOTAL).astype(np.float16)
    run = sim.run(exe, 8, [x, y, np.zeros(TOTAL, np.float16)])
    assert run.returncode == 0, run.stderr
    # IEEE binary16 add, rounded to nearest even: numpy's float16 add is exactly that.
    np.testing.assert_array_equal(run.outputs[2], x + y)
    assert run.stderr == ""


def test_add_custom_report(sim):
    exe = sim.build(KERNELS / "add_custom.cpp", kernel_name="add_custom", args=3)
    x = np.ones(TOTAL, np.float16)
    run = sim.run(exe, 8, [x, x, np.zeros(TOTAL, np.float16)])
    rep = run.report
    assert rep["soc"] == "Ascend910B2"
    assert rep["block_dim"] == 8
    assert rep["total_cycles"] > 0
    assert abs(rep["est_us"] - rep["total_cycles"] / 1800.0) < 0.01
    assert [c["block_idx"] for c in rep["cores"]] == list(range(8))
    for core in rep["cores"]:
        assert core["pipes"]["MTE2"] > 0 and core["pipes"]["MTE3"] > 0 and core["pipes"]["V"] > 0
        assert core["cycles"] <= rep["total_cycles"]
    ops = {(e["pipe"], e["op"]) for e in rep["timeline"]}
    assert ("MTE2", "DataCopy") in ops and ("V", "Add") in ops and ("MTE3", "DataCopy") in ops
    for e in rep["timeline"]:
        assert 0 <= e["start"] <= e["end"] and e["line"] > 0
    assert rep["findings"] == []


def test_block_idx_and_num_per_core(sim):
    kernel = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR out) {
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)out + AscendC::GetBlockIdx() * 2, 2);
    g.SetValue(0, (int32_t)AscendC::GetBlockIdx());
    g.SetValue(1, (int32_t)AscendC::GetBlockNum());
}
"""
    exe = sim.build(kernel, args=1)
    run = sim.run(exe, 5, [np.zeros(10, np.int32)])
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(run.outputs[0].reshape(5, 2), [[i, 5] for i in range(5)])


def test_soc_env_selects_profile(sim):
    exe = sim.build(KERNELS / "add_custom.cpp", kernel_name="add_custom", args=3)
    x = np.ones(TOTAL, np.float16)
    run = sim.run(
        exe, 8, [x, x, np.zeros(TOTAL, np.float16)], env={"ASCEND_SIM_SOC": "Ascend910B4"}
    )
    assert run.returncode == 0, run.stderr
    assert run.report["soc"] == "Ascend910B4"
    bad = sim.run(exe, 8, [x, x, np.zeros(TOTAL, np.float16)], env={"ASCEND_SIM_SOC": "Ascend999"})
    assert bad.returncode != 0
    assert "ASCEND_SIM_SOC" in bad.stderr
