"""half / bfloat16_t behave as the NPU's types, and the mask registers (SetVectorMask,
counter mode, isSetMask = false) drive level-0 instructions.

Why: every half kernel's results depend on binary16 rounding; kernels that set the mask once
and issue many instructions depend on the register state surviving between calls.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import numpy as np

from bench_runner.ascend_sim import build

CONVERT = r"""
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"
int main() {
    // every half bit pattern -> float
    FILE* f = std::fopen("h2f.bin", "wb");
    for (uint32_t b = 0; b < 65536; ++b) { float v = half::FromBits((uint16_t)b); std::fwrite(&v, 4, 1, f); }
    std::fclose(f);
    // floats -> half and bfloat16_t (round to nearest even), doubles -> half
    FILE* in = std::fopen("floats.bin", "rb");
    FILE* oh = std::fopen("f2h.bin", "wb");
    FILE* ob = std::fopen("f2b.bin", "wb");
    FILE* od = std::fopen("d2h.bin", "wb");
    float v;
    while (std::fread(&v, 4, 1, in) == 1) {
        half h = v; bfloat16_t bf = v; half hd = (double)v * 1.0000001;
        std::fwrite(&h, 2, 1, oh); std::fwrite(&bf, 2, 1, ob); std::fwrite(&hd, 2, 1, od);
    }
    std::fclose(in); std::fclose(oh); std::fclose(ob); std::fclose(od);
    // arithmetic promotes to float and rounds back on assignment
    half a = 0.1f, b = 0.2f, c = a + b;
    half d = 1; d += 2.5f; half e = -d; int i = (int)e; float g = c * 2;
    std::printf("%.17g %.17g %d %.17g %d\n", (float)c, (float)d, i, g, (int)(a < b));
    return 0;
}
"""


def test_half_and_bfloat16_conversions():
    d = Path(tempfile.mkdtemp())
    (d / "conv.cpp").write_text(CONVERT)
    build.ensure_pch()
    argv = build.compile_command([d / "conv.cpp"], d / "conv")
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rng = np.random.default_rng(0)
    floats = np.concatenate(
        [
            rng.uniform(-70000, 70000, 20000),
            rng.uniform(-1e-4, 1e-4, 20000),
            rng.uniform(-1, 1, 20000),
            np.array(
                [
                    0.0,
                    -0.0,
                    np.inf,
                    -np.inf,
                    np.nan,
                    65504,
                    65519.99,
                    65520,
                    6e-8,
                    2.98e-8,
                    2.99e-8,
                    1e-9,
                ]
            ),
            # exact ties between neighbouring halves: must round to even
            (np.arange(1024, 2048, dtype=np.float64) + 0.5).astype(np.float32),
        ]
    ).astype(np.float32)
    floats.tofile(d / "floats.bin")
    run = subprocess.run([str(d / "conv")], cwd=d, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    h2f = np.fromfile(d / "h2f.bin", np.float32)
    ref = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float32)
    np.testing.assert_array_equal(
        h2f.view(np.uint32)[~np.isnan(ref)], ref.view(np.uint32)[~np.isnan(ref)]
    )
    assert np.isnan(h2f[np.isnan(ref)]).all()
    f2h = np.fromfile(d / "f2h.bin", np.uint16)
    with np.errstate(over="ignore"):
        want = floats.astype(np.float16)
        want_d = (floats.astype(np.float64) * 1.0000001).astype(np.float16)
    ok = ~np.isnan(floats)
    np.testing.assert_array_equal(f2h[ok], want.view(np.uint16)[ok])
    assert np.isnan(f2h.view(np.float16)[~ok]).all()
    # bfloat16: upper 16 bits of the float, rounded to nearest even
    u = floats.view(np.uint32).astype(np.uint64)
    bf_want = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    f2b = np.fromfile(d / "f2b.bin", np.uint16)
    np.testing.assert_array_equal(f2b[ok], bf_want[ok])
    d2h = np.fromfile(d / "d2h.bin", np.uint16)
    np.testing.assert_array_equal(d2h[ok], want_d.view(np.uint16)[ok])
    c, dd, i, g, lt = run.stdout.split()
    assert float(c) == float(np.float16(np.float16(0.1) + np.float16(0.2)))
    assert float(dd) == 3.5 and int(i) == -3 and int(lt) == 1
    assert float(g) == float(np.float32(np.float16(np.float16(0.1) + np.float16(0.2))) * 2)


def test_vector_mask_registers(sim):
    kernel = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    GlobalTensor<half> gx, gz;
    gx.SetGlobalBuffer((__gm__ half *)x, 1024);
    gz.SetGlobalBuffer((__gm__ half *)z, 1024);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ta, tb;
    pipe.InitBuffer(ta, 2048);
    pipe.InitBuffer(tb, 2048);
    LocalTensor<half> a = ta.Get<half>(), b = tb.Get<half>();
    DataCopy(a, gx, 1024);
    Duplicate(b, (half)0, 1024);
    // counter mode: the first 300 elements, repeat count ignored
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, 300);
    Add<half, false>(b, a, a, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    SetMaskNorm();
    // normal mode, mask set once and reused: lanes 0..3 of repeats 4 and 5 (elements 512..)
    SetVectorMask<half, MaskMode::NORMAL>(0, 0xF);
    Muls<half, false>(b[512], a[512], (half)3.0, MASK_PLACEHOLDER, 2, UnaryRepeatParams());
    ResetMask();
    DataCopy(gz, b, 1024);
}
"""
    exe = sim.build(kernel, args=2)
    x = np.arange(1024).astype(np.float16)
    run = sim.run(exe, 1, [x, np.zeros(1024, np.float16)])
    assert run.returncode == 0, run.stderr
    want = np.zeros(1024, np.float16)
    want[:300] = x[:300] + x[:300]
    for r in range(2):
        s = 512 + r * 128
        want[s : s + 4] = x[s : s + 4] * np.float16(3)
    np.testing.assert_array_equal(run.outputs[1], want)
