"""Compare what a kernel wrote with the golden, element by element.

Rules (docs/evaluator.md): float outputs pass where ``|got - want| <= atol + rtol * |want|``;
a NaN or an infinity passes only where the golden has the same (same sign for infinities);
integers and bools must match exactly (a bool byte must be 0 or 1). Elements still holding the
poison the evaluator wrote before the launch are counted as unwritten. Inputs must come back
byte-identical unless an output aliases them (in-place tasks).
"""

from __future__ import annotations

import math
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


def decode(raw: bytes | memoryview, dtype: dtypes.DType, shape: tuple[int, ...]) -> np.ndarray | None:
    """Bytes from the driver as a (read-only) array over them, or None if the length is wrong."""
    n = int(np.prod(shape, dtype=np.int64))
    if len(raw) != n * dtype.itemsize:
        return None
    storage = np.uint8 if dtype.name == "bool" else dtype.storage
    return np.frombuffer(raw, dtype=storage).reshape(shape)


#: Elements compared per step: the float64 temporaries of one step stay small (2 MiB each).
CHUNK = 1 << 18


def compare(name: str, got: np.ndarray, want: np.ndarray, dtype: dtypes.DType, tol: Tolerance | None,
            poison: np.ndarray | None = None) -> OutputCheck:
    """Check one output against its golden (both in storage dtype; bools as bytes).

    Elements whose bytes equal the golden's always pass (with a non-negative, finite tolerance)
    and add nothing to the errors, so each step of :data:`CHUNK` elements widens to float64
    only the elements whose bytes differ (all of a step when most differ); counts and maxima
    are summed over the steps, so the result is the one the rules give for the whole array.
    """
    total = int(want.size)
    storage = np.dtype(np.uint8) if dtype.name == "bool" else dtype.storage
    got = np.asarray(got)
    if got.dtype != storage:
        got = got.astype(storage)
    want = np.asarray(want)
    if want.dtype != storage and not (dtype.name == "bool" and want.dtype == np.bool_):
        want = want.astype(storage)
    if dtype.is_float:
        assert tol is not None, "float outputs always have a tolerance"
    # Bit patterns, flat: equal bytes <=> equal unsigned integers of the element's width.
    g_bits, w_bits = _bits(got), _bits(want)
    p_bits = _bits(poison) if poison is not None else None
    # Without a usable tolerance an element equal to its golden may still fail: look at every one.
    every = dtype.is_float and not (tol is not None and tol.atol >= 0 and tol.rtol >= 0
                                    and math.isfinite(tol.atol) and math.isfinite(tol.rtol))
    count = nan_inf = unwritten = 0
    abs_err = rel_err = 0.0
    first_flat: int | None = None
    for start in range(0, total, CHUNK):
        stop = min(total, start + CHUNK)
        gc, wc = g_bits[start:stop], w_bits[start:stop]
        pc = p_bits[start:stop] if p_bits is not None else None
        pos: np.ndarray | None = None
        if not every:
            pos = np.flatnonzero(gc != wc)
            if pos.size == 0:
                continue
            if pos.size * 4 < stop - start:  # few differ: work on those only
                gc, wc = gc[pos], wc[pos]
                pc = pc[pos] if pc is not None else None
            else:
                pos = None
        stats = _step(gc, wc, pc, dtype, tol)
        if stats is None:
            continue
        bad, n_nan_inf, n_unwritten, step_abs, step_rel = stats
        n_bad = int(np.count_nonzero(bad))
        if n_bad and first_flat is None:
            at = int(np.argmax(bad))
            first_flat = start + (int(pos[at]) if pos is not None else at)
        count += n_bad
        nan_inf += n_nan_inf
        unwritten += n_unwritten
        abs_err, rel_err = max(abs_err, step_abs), max(rel_err, step_rel)
    first = got_v = want_v = None
    if first_flat is not None:
        idx = tuple(int(i) for i in np.unravel_index(first_flat, want.shape)) if want.ndim else ()
        first = idx
        got_v, want_v = _scalar(got[idx], dtype), _scalar(want[idx], dtype)
    return OutputCheck(name, count == 0, count, nan_inf, unwritten, total, abs_err, rel_err, first, got_v, want_v)


def _bits(a: np.ndarray) -> np.ndarray:
    """``a``'s elements as unsigned integers of the same width, flat (a view when contiguous)."""
    a = np.ascontiguousarray(a)
    return a.reshape(-1).view(np.dtype(f"u{a.dtype.itemsize}"))


def _step(g_bits: np.ndarray, w_bits: np.ndarray, p_bits: np.ndarray | None, dtype: dtypes.DType,
          tol: Tolerance | None) -> tuple[np.ndarray, int, int, float, float] | None:
    """The rules on one run of elements (bit patterns): the failing mask, the NaN/Inf and unwritten
    counts among the failures, and the largest absolute and relative errors."""
    if g_bits.size == 0:
        return None
    nan_inf_n = 0
    if not dtype.is_float:
        bad = g_bits != w_bits
        if dtype.name == "bool":
            abs_err = rel_err = 1.0 if bad.any() else 0.0
        else:
            g = g_bits.view(dtype.storage).astype(np.float64)
            w = w_bits.view(dtype.storage).astype(np.float64)
            diff = np.abs(g - w)
            abs_err = float(diff.max())
            rel_err = float((diff / np.maximum(np.abs(w), 1.0)).max())
    else:
        assert tol is not None
        g = dtypes.to_float64(g_bits.view(dtype.storage), dtype)
        w = dtypes.to_float64(w_bits.view(dtype.storage), dtype)
        with np.errstate(invalid="ignore", over="ignore"):
            g_nan, w_nan = np.isnan(g), np.isnan(w)
            special_ok = (g_nan & w_nan) | (np.isinf(g) & np.isinf(w) & (np.sign(g) == np.sign(w)))
            finite = np.isfinite(g) & np.isfinite(w)
            diff = np.where(finite, np.abs(g - w), 0.0)
            w_abs = np.abs(np.where(finite, w, 0.0))
            within = diff <= tol.atol + tol.rtol * w_abs
            bad = ~((finite & within) | special_ok)
            abs_err = float(diff.max())
            rel = diff / np.maximum(w_abs, 1e-12)
            rel_err = float(np.where(finite, rel, 0.0).max())
        nan_inf_mask = ~finite & ~special_ok & bad
    unwritten_mask = (g_bits == p_bits) & bad if p_bits is not None else None
    unwritten_n = int(np.count_nonzero(unwritten_mask)) if unwritten_mask is not None else 0
    if dtype.is_float:
        if unwritten_mask is not None:
            nan_inf_mask &= ~unwritten_mask
        nan_inf_n = int(np.count_nonzero(nan_inf_mask))
    return bad, nan_inf_n, unwritten_n, abs_err, rel_err


def _scalar(value: np.generic, dtype: dtypes.DType) -> float:
    if dtype.name == "bfloat16":
        return float(dtypes.to_float64(np.asarray(value), dtype))
    return float(value)
