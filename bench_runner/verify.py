"""Compare what a kernel wrote with the golden, element by element.

Rules (docs/evaluator.md): float outputs pass where ``|got - want| <= atol + rtol * |want|``;
a NaN or an infinity passes only where the golden has the same (same sign for infinities);
integers and bools must match exactly (a bool byte must be 0 or 1). Elements still holding the
poison the evaluator wrote before the launch are counted as unwritten. Inputs must come back
byte-identical unless an output aliases them (in-place tasks).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bench_runner import dtypes
from bench_runner.tasks import Tolerance


@dataclass(frozen=True, slots=True)
class OutputCheck:
    name: str
    passed: bool
    mismatch_count: int
    #: Elements whose NaN/Inf status differs from the golden's.
    nan_inf_count: int
    #: Elements the kernel never wrote (still the poison).
    unwritten_count: int
    total: int
    max_abs_err: float
    max_rel_err: float
    #: Index of the first failing element, with the values there, for the diagnostic.
    first_bad: tuple[int, ...] | None = None
    got_value: float | None = None
    want_value: float | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name, "passed": self.passed, "mismatch_count": self.mismatch_count,
            "nan_inf_count": self.nan_inf_count, "unwritten_count": self.unwritten_count,
            "total": self.total, "max_abs_err": self.max_abs_err, "max_rel_err": self.max_rel_err,
            "first_bad": list(self.first_bad) if self.first_bad is not None else None,
            "got": self.got_value, "want": self.want_value,
        }

    def describe(self) -> str:
        """One line for a diagnostic: what failed, how much, and the first place it did."""
        parts = []
        if self.unwritten_count:
            parts.append(f"{self.unwritten_count} of {self.total} elements never written")
        if self.nan_inf_count:
            parts.append(f"{self.nan_inf_count} unexpected NaN/Inf")
        wrong = self.mismatch_count - self.unwritten_count - self.nan_inf_count
        if wrong > 0:
            parts.append(f"{wrong} of {self.total} elements outside tolerance "
                         f"(max abs err {self.max_abs_err:.3g}, max rel err {self.max_rel_err:.3g})")
        where = ""
        if self.first_bad is not None:
            where = f"; first at index {list(self.first_bad)}: got {self.got_value!r}, want {self.want_value!r}"
        return f"output {self.name!r}: " + ", ".join(parts) + where


def decode(raw: bytes, dtype: dtypes.DType, shape: tuple[int, ...]) -> np.ndarray | None:
    """Bytes from the driver as an array, or None if the length is wrong."""
    n = int(np.prod(shape, dtype=np.int64))
    if len(raw) != n * dtype.itemsize:
        return None
    storage = np.uint8 if dtype.name == "bool" else dtype.storage
    return np.frombuffer(raw, dtype=storage).reshape(shape)


def compare(name: str, got: np.ndarray, want: np.ndarray, dtype: dtypes.DType, tol: Tolerance | None,
            poison: np.ndarray | None = None) -> OutputCheck:
    """Check one output against its golden (both in storage dtype; bools as bytes)."""
    total = int(want.size)
    unwritten = np.zeros(want.shape, dtype=bool)
    if poison is not None:
        p = poison.view(np.uint8) if dtype.name == "bool" else poison
        unwritten = _bytes_equal(got, p, dtype)
    if dtype.name == "bool":
        bad = got != want.astype(np.uint8)
        nan_inf = np.zeros(want.shape, dtype=bool)
        abs_err = rel_err = 0.0 if not bad.any() else 1.0
    elif not dtype.is_float:
        bad = got != want
        nan_inf = np.zeros(want.shape, dtype=bool)
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        abs_err = float(diff.max()) if diff.size else 0.0
        rel_err = float((diff / np.maximum(np.abs(want.astype(np.float64)), 1.0)).max()) if diff.size else 0.0
    else:
        g, w = dtypes.to_float64(got, dtype), dtypes.to_float64(want, dtype)
        g_nan, w_nan = np.isnan(g), np.isnan(w)
        g_inf, w_inf = np.isinf(g), np.isinf(w)
        special_ok = (g_nan & w_nan) | (g_inf & w_inf & (np.sign(g) == np.sign(w)))
        finite = np.isfinite(g) & np.isfinite(w)
        nan_inf = ~finite & ~special_ok
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.where(finite, np.abs(g - w), 0.0)
        assert tol is not None, "float outputs always have a tolerance"
        within = diff <= tol.atol + tol.rtol * np.abs(np.where(finite, w, 0.0))
        bad = ~((finite & within) | special_ok)
        abs_err = float(diff.max()) if diff.size else 0.0
        rel = diff / np.maximum(np.abs(np.where(finite, w, 0.0)), 1e-12)
        rel_err = float(np.where(finite, rel, 0.0).max()) if diff.size else 0.0
    unwritten &= bad
    nan_inf &= bad & ~unwritten
    count = int(bad.sum())
    first = got_v = want_v = None
    if count:
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        first = idx
        got_v, want_v = _scalar(got[idx], dtype), _scalar(want[idx], dtype)
    return OutputCheck(name, count == 0, count, int(nan_inf.sum()), int(unwritten.sum()), total,
                       abs_err, rel_err, first, got_v, want_v)


def _bytes_equal(a: np.ndarray, b: np.ndarray, dtype: dtypes.DType) -> np.ndarray:
    width = dtype.itemsize
    av = np.ascontiguousarray(a).view(np.uint8).reshape(-1, width)
    bv = np.ascontiguousarray(b).view(np.uint8).reshape(-1, width)
    return (av == bv).all(axis=1).reshape(a.shape)


def _scalar(value: np.generic, dtype: dtypes.DType) -> float:
    if dtype.name == "bfloat16":
        return float(dtypes.to_float64(np.asarray(value), dtype))
    return float(value)
