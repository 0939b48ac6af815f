"""Tiling macros: a host computes an op_host-style tiling struct (BEGIN_TILING_DATA_DEF ...),
saves it into global memory, and the kernel reads it with GET_TILING_DATA and branches on
TILING_KEY_IS.

Why: host+device tasks pass every shape through this path; the bytes written by SaveToBuffer
must be exactly what GET_TILING_DATA reads.
"""

from __future__ import annotations

import subprocess

import pytest

from .simtools import KERNELS


@pytest.fixture(scope="module")
def tiled(sim):
    src = (KERNELS / "add_tiled.cpp").read_text()
    proc, exe = sim.compile(
        src,
        kernel_name="add_tiled",
        args=5,
        host=KERNELS / "tiling_main.cpp",
        extra_include_dirs=[KERNELS],
    )
    assert proc.returncode == 0, proc.stderr
    return exe


@pytest.mark.parametrize("key", [1, 2])
def test_tiling_roundtrip(tiled, key):
    proc = subprocess.run(
        [str(tiled), str(key), "4", "4096"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK 4096" in proc.stdout


def test_tiling_null_pointer_is_reported(sim):
    kernel = r"""
#include "kernel_operator.h"
struct T { uint32_t n; };
REGISTER_TILING_DEFAULT(T);
extern "C" __global__ __aicore__ void k(GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    (void)t;
}
"""
    import numpy as np

    exe = sim.build(kernel, args=1)
    run = sim.run(exe, 1, [np.zeros(1, np.uint8)])  # 1-byte buffer: a 4-byte struct reads past it
    assert run.returncode == 3
    assert run.codes("error") == ["GM_OOB"]
    assert "GET_TILING_DATA" in run.stderr
