"""Comparison rules: tolerance, NaN/Inf placement, poison (unwritten) detection, exact integers."""

from __future__ import annotations

import numpy as np
import pytest

from bench_runner import dtypes, launcher, verify
from bench_runner.tasks import Tolerance

F32, F16, BF16 = dtypes.get("float32"), dtypes.get("float16"), dtypes.get("bfloat16")
TOL = Tolerance(rtol=1e-3, atol=1e-3)


def test_within_tolerance_passes_and_outside_fails_with_location() -> None:
    want = np.linspace(-1, 1, 100, dtype=np.float32)
    ok = verify.compare("z", want + 5e-4, want, F32, TOL)
    assert ok.passed and ok.max_abs_err == pytest.approx(5e-4, rel=1e-3)
    got = want.copy()
    got[17] += 0.5
    bad = verify.compare("z", got, want, F32, TOL)
    assert not bad.passed and bad.mismatch_count == 1 and bad.first_bad == (17,)
    assert "index [17]" in bad.describe()


def test_nan_fails_unless_golden_has_nan_at_the_same_place() -> None:
    want = np.array([1.0, np.nan, np.inf, -np.inf], dtype=np.float32)
    assert verify.compare("z", want.copy(), want, F32, TOL).passed
    swapped = np.array([1.0, np.nan, -np.inf, -np.inf], dtype=np.float32)
    r = verify.compare("z", swapped, want, F32, TOL)
    assert not r.passed and r.nan_inf_count == 1
    nan_where_finite = np.array([np.nan, np.nan, np.inf, -np.inf], dtype=np.float32)
    assert verify.compare("z", nan_where_finite, want, F32, TOL).nan_inf_count == 1
    finite_where_nan = np.array([1.0, 0.0, np.inf, -np.inf], dtype=np.float32)
    assert not verify.compare("z", finite_where_nan, want, F32, TOL).passed


@pytest.mark.parametrize("name", ["float32", "float16", "bfloat16", "int32", "int8", "bool"])
def test_poison_never_passes_and_is_counted_as_unwritten(name: str) -> None:
    dt = dtypes.get(name)
    shape = (4, 33)
    want = np.zeros(shape, dtype=dt.storage) if name != "bool" else np.zeros(shape, dtype=np.bool_)
    if dt.is_float:
        want[0, 0] = np.nan if name != "bfloat16" else 0x7FC0
    poison = launcher.poison_like(dt, shape, want)
    got = poison.view(np.uint8) if name == "bool" else poison
    tol = TOL if dt.is_float else None
    r = verify.compare("z", got, want, dt, tol, poison)
    assert not r.passed
    assert r.unwritten_count == r.mismatch_count == want.size


def test_poison_is_fresh_each_time() -> None:
    a = launcher.poison_like(F32, (64,)).view(np.uint32)
    b = launcher.poison_like(F32, (64,)).view(np.uint32)
    assert not np.array_equal(a, b)
    assert np.isnan(launcher.poison_like(F16, (8,))).all()


def test_integers_are_exact_and_bools_must_be_0_or_1() -> None:
    i32 = dtypes.get("int32")
    want = np.arange(10, dtype=np.int32)
    assert verify.compare("z", want.copy(), want, i32, None).passed
    got = want.copy()
    got[3] += 1
    assert verify.compare("z", got, want, i32, None).mismatch_count == 1
    b = dtypes.get("bool")
    want_b = np.array([True, False, True])
    assert verify.compare("z", np.array([1, 0, 1], dtype=np.uint8), want_b, b, None).passed
    assert not verify.compare("z", np.array([2, 0, 1], dtype=np.uint8), want_b, b, None).passed


def test_bfloat16_round_trip_and_comparison() -> None:
    values = np.array([1.0, -2.5, 3.140625, 65280.0, 1e-3])
    stored = dtypes.from_float64(values, BF16)
    assert stored.dtype == np.uint16
    back = dtypes.to_float64(stored, BF16)
    assert np.allclose(back, values, rtol=2 ** -8)
    assert verify.compare("z", stored, stored, BF16, Tolerance(1e-2, 1e-2)).passed


def test_decode_rejects_wrong_length() -> None:
    assert verify.decode(b"\0" * 12, F32, (3,)) is not None
    assert verify.decode(b"\0" * 11, F32, (3,)) is None
