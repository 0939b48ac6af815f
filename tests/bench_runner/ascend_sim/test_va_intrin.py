"""The VA-register ISA forms (ascend_sim/va_intrin.h) that NPUKernelBench's AddLayerNorm answers
call on raw UB pointers: set_va_reg_sb + scatter_vnchwconv_b16 (TransDataTo5HD's address lists
read from two registers each), vtranspose, vor under the current mask."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

KERNELS = Path(__file__).parent / "kernels"


@pytest.fixture(scope="module")
def exe(sim):
    return sim.build(KERNELS / "va_intrin.cpp", args=3)


def _run(sim, exe, op):
    x = (np.arange(1024) * 7 % 301 - 150).astype(np.int16)
    params = np.zeros(8, np.int32)
    params[0] = op
    run = sim.run(exe, 1, [x, np.full(1024, -1, np.int16), params])
    return run, x, run.outputs[1].view(np.int16)


def test_vtranspose_transposes_one_16_by_16_block(sim, exe):
    run, x, z = _run(sim, exe, 0)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z[:256].reshape(16, 16), x[:256].reshape(16, 16).T)
    assert (z[256:] == -1).all()


def test_vor_ors_under_the_current_mask(sim, exe):
    run, x, z = _run(sim, exe, 1)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z[:128], x[:128] | x[128:256])


def test_scatter_vnchwconv_reads_its_lists_from_two_va_registers_each(sim, exe):
    """Sixteen 32-byte source blocks (x, one after another) to sixteen destination blocks:
    destination block j holds element j of every source block — the 16 x 16 transpose."""
    run, x, z = _run(sim, exe, 2)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(z[:256].reshape(16, 16), x[:256].reshape(16, 16).T)
    run, _, _ = _run(sim, exe, 3)
    assert run.returncode == 3
    f = [f for f in run.report["findings"] if f["severity"] == "error"][0]
    assert f["code"] == "BAD_PARAM" and "VA7" in f["message"]
