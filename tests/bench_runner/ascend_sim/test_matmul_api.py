"""The high-level Matmul API (lib/matmul_intf.h) and its host tiling (tiling/tiling_api.h)
against numpy: MultiCoreMatmulTiling splits M x N over the AI cores, each core multiplies its
block with SetTensorA/B (optionally transposed), SetBias, SetTail and IterateAll or
Iterate/GetTensorC; shapes that are not multiples of 16.

Why: public kernels use the high-level Matmul far more than the raw cube instructions; the
emulator must give the same numbers and a cost that follows the tiling.
"""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

from .simtools import KERNELS


@pytest.fixture(scope="module")
def mm_hl(sim):
    return sim.build(KERNELS / "matmul_hl.cpp", host=KERNELS / "matmul_hl_main.cpp", extra_include_dirs=[KERNELS])


def run(exe, tmp_path, cores, a, b, bias, m, k, n, trans_a=0, trans_b=0, iterate=0):
    files = []
    for name, arr in (("a", a), ("b", b), ("bias", bias), ("c", np.zeros((m, n), np.float32))):
        f = tmp_path / f"{name}.bin"
        arr.tofile(f)
        files.append(str(f))
    rep = tmp_path / "report.json"
    argv = [str(exe), str(cores), str(m), str(k), str(n), str(trans_a), str(trans_b), str(int(bias is not None and bias.size > 0)),
            str(iterate), *files]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "ASCEND_SIM_REPORT": str(rep)})
    assert proc.returncode == 0, proc.stderr
    out = np.fromfile(files[3] + ".out", np.float32).reshape(m, n)
    return out, json.loads(rep.read_text()), proc.stdout


@pytest.mark.parametrize("m,k,n,cores,iterate", [(256, 128, 384, 24, 0), (100, 72, 50, 4, 1), (33, 17, 300, 8, 0)])
def test_matmul_api(mm_hl, tmp_path, m, k, n, cores, iterate):
    rng = np.random.default_rng(m + k + n)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    out, rep, stdout = run(mm_hl, tmp_path, cores, a, b, bias, m, k, n, iterate=iterate)
    want = a.astype(np.float64) @ b.astype(np.float64) + bias
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-4)
    assert rep["cube_macs"] == m * n * k
    assert 1 < rep["block_dim"] <= cores
    core = rep["cores"][0]
    assert core["pipes"]["M"] > 0 and core["pipes"]["MTE2"] > 0 and core["pipes"]["FIX"] > 0


def test_matmul_api_transposed(mm_hl, tmp_path):
    rng = np.random.default_rng(5)
    m, k, n = 48, 40, 70
    at = rng.uniform(-1, 1, (k, m)).astype(np.float16)  # A^T stored K x M
    bt = rng.uniform(-1, 1, (n, k)).astype(np.float16)  # B^T stored N x K
    out, _, _ = run(mm_hl, tmp_path, 6, at, bt, np.zeros(n, np.float32), m, k, n, trans_a=1, trans_b=1)
    np.testing.assert_allclose(out, at.T.astype(np.float64) @ bt.T.astype(np.float64), rtol=1e-5, atol=1e-4)


def test_matmul_api_more_work_costs_more(mm_hl, tmp_path):
    rng = np.random.default_rng(6)
    res = []
    for k in (64, 512):
        a = rng.uniform(-1, 1, (128, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (k, 128)).astype(np.float16)
        _, rep, _ = run(mm_hl, tmp_path, 1, a, b, np.zeros(128, np.float32), 128, k, 128)
        res.append(rep["cores"][0]["pipes"]["M"])
    # the cube time follows the MACs (8x the K): 16x16x16 per cycle plus a small per-Mmad overhead
    assert 7.5 * res[0] < res[1] < 8.5 * res[0]


def test_matmul_api_in_mix_kernel(sim, tmp_path):
    """In a MIX launch REGIST_MATMUL_OBJ sends the AIC away (it would serve the AIVs' requests);
    the AIVs whose GetBlockIdx() < usedCoreNum compute their blocks."""
    exe = sim.build(KERNELS / "matmul_hl.cpp", host=KERNELS / "matmul_hl_main.cpp", extra_include_dirs=[KERNELS],
                    defines={"HL_MODE": "MIX_MODE"})
    rng = np.random.default_rng(9)
    m, k, n = 96, 64, 200
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    out, rep, _ = run(exe, tmp_path, 6, a, b, bias, m, k, n)
    np.testing.assert_allclose(out, a.astype(np.float64) @ b.astype(np.float64) + bias, rtol=1e-5, atol=1e-4)
    assert rep["cube_macs"] == m * n * k  # each block computed exactly once
    busy = [c for c in rep["cores"] if c["pipes"]["M"] > 0]
    assert busy and all(c["core_type"] == "AIV" for c in busy)
