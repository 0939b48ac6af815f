"""High-level math APIs of ascend_sim/adv_math.h against numpy: Sin, Cos, Tan, Asin, Acos, Atan,
Sinh, Cosh, Asinh, Acosh, Atanh, Erf, Erfc, Trunc, Frac, Floor, Ceil, Round (half and float, every
call form), the same APIs passed as template arguments of function-pointer type (NPUKernelBench's
foreach kernels do `ForeachTriangle<half, half, Sin<half, false>>`), and the scalar bf16 helpers
ToFloat / ToBfloat16.

Why: public kernels call these library APIs and include them through lib/math/*_intf.h; the
emulator must give the documented values, keep CANN's overload sets (no more, no less), and keep
reporting the caller's source line.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from .simtools import KERNELS

CAP_UNARY = 2048
CAP_FOREACH = 1024
#: A count that runs past the 192 KiB Unified Buffer (an error; a count past the tensor but inside
#: the UB runs on into the neighbouring buffers, as on the NPU, with a warning).
PAST_UB = 1 << 17
FINDING = re.compile(r"^\[ERROR\]\[Core_\d+\]\[([^\]]+):(\d+)\]\[(\w+)\] ([A-Z_]+): ", re.M)

_erf = np.vectorize(math.erf)
_erfc = np.vectorize(math.erfc)

# op code (math_unary.cpp's switch) -> (name, numpy reference, input range)
OPS: dict[int, tuple[str, object, tuple[float, float]]] = {
    0: ("Sin", np.sin, (-20.0, 20.0)),
    1: ("Cos", np.cos, (-20.0, 20.0)),
    2: ("Tan", np.tan, (-1.4, 1.4)),
    3: ("Asin", np.arcsin, (-1.0, 1.0)),
    4: ("Acos", np.arccos, (-1.0, 1.0)),
    5: ("Atan", np.arctan, (-30.0, 30.0)),
    6: ("Sinh", np.sinh, (-5.0, 5.0)),
    7: ("Cosh", np.cosh, (-5.0, 5.0)),
    8: ("Asinh", np.arcsinh, (-50.0, 50.0)),
    9: ("Acosh", np.arccosh, (1.0, 50.0)),
    10: ("Atanh", np.arctanh, (-0.95, 0.95)),
    11: ("Erf", _erf, (-3.0, 3.0)),
    12: ("Erfc", _erfc, (-3.0, 3.0)),
    13: ("Trunc", np.trunc, (-50.0, 50.0)),
    14: ("Frac", lambda x: x - np.trunc(x), (-50.0, 50.0)),
    15: ("Floor", np.floor, (-50.0, 50.0)),
    16: ("Ceil", np.ceil, (-50.0, 50.0)),
    17: ("Round", np.rint, (-50.0, 50.0)),
}
TWO_FORMS = {15, 16, 17}  # Floor / Ceil / Round: only the calCount forms on Atlas A2


@pytest.fixture(scope="module", params=["float", "half"])
def unary(request, sim):
    dt = np.float32 if request.param == "float" else np.float16
    return sim.build(KERNELS / "math_unary.cpp", args=3, defines={"DTYPE": request.param}), dt


def run_unary(sim, exe, dt, op: int, x: np.ndarray, n: int, form: int, tmp: int = 1024):
    p = np.array([op, n, form, tmp, 0, 0, 0, 0], np.int32)
    z = np.full(CAP_UNARY, 7, dt)
    run = sim.run(exe, 1, [x, z, p])
    return run, run.outputs[1]


def tolerance(dt, op: int) -> dict[str, float]:
    if op in (13, 15, 16, 17):  # rounding: exact in either dtype
        return {"rtol": 0, "atol": 0}
    if dt == np.float16:  # the float result rounded to half: half an ulp, plus the input rounding
        return {"rtol": 2e-3, "atol": 2e-3}
    return {"rtol": 2e-6, "atol": 1e-6}


def inputs(dt, op: int) -> np.ndarray:
    lo, hi = OPS[op][2]
    x = np.random.default_rng(op).uniform(lo, hi, CAP_UNARY).astype(dt)
    if op in (13, 14, 15, 16, 17):  # exact halves and integers, where rounding modes differ
        x[:8] = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -3.0, 4.0], dt)
    return x


@pytest.mark.parametrize("op", sorted(OPS))
def test_matches_numpy_with_count(sim, unary, op):
    exe, dt = unary
    x, n = inputs(dt, op), 1000
    for form in (0, 1):
        run, z = run_unary(sim, exe, dt, op, x, n, form)
        assert run.returncode == 0, run.stderr
        want = OPS[op][1](x[:n].astype(np.float64))
        np.testing.assert_allclose(z[:n].astype(np.float64), want, **tolerance(dt, op))
        assert (z[n:] == dt(7)).all(), "wrote beyond calCount"


@pytest.mark.parametrize("op", sorted(set(OPS) - TWO_FORMS))
def test_whole_tensor_forms(sim, unary, op):
    exe, dt = unary
    x = inputs(dt, op)
    for form in (2, 3):
        run, z = run_unary(sim, exe, dt, op, x, 0, form)
        assert run.returncode == 0, run.stderr
        want = OPS[op][1](x.astype(np.float64))
        np.testing.assert_allclose(z.astype(np.float64), want, **tolerance(dt, op))


def test_round_is_half_to_even_and_frac_keeps_sign(sim, unary):
    exe, dt = unary
    x = np.zeros(CAP_UNARY, dt)
    x[:6] = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]
    run, z = run_unary(sim, exe, dt, 17, x, 6, 1)
    assert run.returncode == 0, run.stderr
    assert z[:6].tolist() == [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0]
    x[:2] = [-2.75, 3.25]
    run, z = run_unary(sim, exe, dt, 14, x, 2, 1)
    assert z[:2].tolist() == [-0.75, 0.25]


def test_reuse_source_and_cost(sim, unary):
    exe, dt = unary
    x = inputs(dt, 0)
    run, z = run_unary(sim, exe, dt, 18, x, 512, 1)  # Sin<T, true>
    assert run.returncode == 0, run.stderr
    np.testing.assert_allclose(
        z[:512].astype(np.float64), np.sin(x[:512].astype(np.float64)), **tolerance(dt, 0)
    )
    sin_v = [e for e in run.report["timeline"] if e["op"] == "Sin"]
    assert sin_v and all(e["pipe"] == "V" for e in sin_v)
    run, _ = run_unary(sim, exe, dt, 15, x, 512, 1)
    floor_v = [e for e in run.report["timeline"] if e["op"] == "Floor"]
    # a Cast sequence is shorter than range reduction + polynomial
    assert 0 < len(floor_v) < len(sin_v)


def test_calcount_beyond_tensor_is_reported(sim, unary):
    exe, dt = unary
    run, _ = run_unary(sim, exe, dt, 11, inputs(dt, 11), PAST_UB, 1)
    assert run.returncode != 0
    m = FINDING.search(run.stderr)
    assert m and m.group(3) == "Erf", run.stderr


# ---- APIs as template arguments (math_foreach.cpp) ----

FOREACH = {
    0: np.sin,
    1: _erf,
    2: np.tanh,
    3: lambda x: 1 / (1 + np.exp(-x)),
    4: np.arctan,
    5: np.cosh,
    6: np.floor,
}


@pytest.fixture(scope="module", params=["float", "half"])
def foreach(request, sim):
    dt = np.float32 if request.param == "float" else np.float16
    return sim.build(KERNELS / "math_foreach.cpp", args=3, defines={"DTYPE": request.param}), dt


@pytest.mark.parametrize("op", sorted(FOREACH))
def test_api_as_template_argument(sim, foreach, op):
    exe, dt = foreach
    n = 640
    x = np.random.default_rng(10 + op).uniform(-4, 4, CAP_FOREACH).astype(dt)
    run = sim.run(
        exe, 1, [x, np.zeros(CAP_FOREACH, dt), np.array([op, n, 0, 0, 0, 0, 0, 0], np.int32)]
    )
    assert run.returncode == 0, run.stderr
    tol = {"rtol": 2e-3, "atol": 2e-3} if dt == np.float16 else {"rtol": 2e-6, "atol": 1e-6}
    np.testing.assert_allclose(
        run.outputs[1][:n].astype(np.float64), FOREACH[op](x[:n].astype(np.float64)), **tol
    )
    assert (run.outputs[1][n:] == 0).all()


def test_direct_call_still_names_its_line(sim, foreach):
    exe, dt = foreach
    x = np.ones(CAP_FOREACH, dt)
    run = sim.run(
        exe, 1, [x, np.zeros_like(x), np.array([7, PAST_UB, 0, 0, 0, 0, 0, 0], np.int32)]
    )
    assert run.returncode != 0
    m = FINDING.search(run.stderr)
    assert m and m.group(3) == "Sin" and m.group(4) == "LOCAL_OOB", run.stderr
    src = (KERNELS / "math_foreach.cpp").read_text().splitlines()
    assert int(m.group(2)) == next(i + 1 for i, s in enumerate(src) if "MARK:direct" in s)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bits, round to nearest even (the reference for ToBfloat16)."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_tofloat_tobfloat16(sim, foreach):
    exe, _ = foreach
    n = 300
    xf = np.random.default_rng(7).uniform(-100, 100, CAP_FOREACH).astype(np.float32)
    xb = bf16_bits(xf)
    run = sim.run(
        exe,
        1,
        [xb, np.zeros(CAP_FOREACH, np.uint16), np.array([100, n, 0, 0, 0, 0, 0, 0], np.int32)],
    )
    assert run.returncode == 0, run.stderr
    widened = (xb[:n].astype(np.uint32) << 16).view(np.float32)  # ToFloat: exact
    want = bf16_bits(widened * np.float32(3) + np.float32(0.5))
    np.testing.assert_array_equal(run.outputs[1][:n], want)


# ---- overload sets stay CANN's ----

MISUSE = {
    "int_dtype": "LocalTensor<int32_t> t = b.Get<int32_t>(); Sin(t, t, 8u);",
    "floor_has_no_whole_form": "LocalTensor<float> t = b.Get<float>(); Floor(t, t);",
    "extra_argument": "LocalTensor<float> t = b.Get<float>(); Cos(t, t, 8u, 1);",
    "wrong_fn_type": "using F = void(const LocalTensor<float>&, const LocalTensor<float>&, const int32_t&);"
    " F* f = Asin<float, false>; (void)f;",
}


@pytest.mark.parametrize("case", sorted(MISUSE))
def test_misuse_does_not_compile(sim, case):
    src = (
        '#include "lib/math/kernel_operator_cos_intf.h"\nusing namespace AscendC;\n'
        'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {\n'
        "    TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);\n"
        f"    {MISUSE[case]}\n}}\n"
    )
    proc, _ = sim.compile(src, args=3)
    assert proc.returncode != 0, case


def test_every_intf_header_compiles(sim):
    inc = Path(__file__).resolve().parents[3] / "bench_runner/ascend_sim/include/lib/math"
    names = sorted(p.name for p in inc.glob("kernel_operator_*_intf.h"))
    assert {
        "kernel_operator_asin_intf.h",
        "kernel_operator_sin_intf.h",
        "kernel_operator_erf_intf.h",
    } <= set(names)
    src = "".join(f'#include "lib/math/{n}"\n' for n in names) + (
        '#include "lib/sigmoid/kernel_operator_sigmoid_intf.h"\n'
        "using F = void(const AscendC::LocalTensor<float>&, const AscendC::LocalTensor<float>&, const uint32_t);\n"
        "F* const fs[] = {AscendC::Sin<float, false>, AscendC::Sigmoid<float, false>, AscendC::Erfc<float, false>};\n"
        'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {}\n'
    )
    proc, _ = sim.compile(src, args=3)
    assert proc.returncode == 0, proc.stderr[-3000:]
