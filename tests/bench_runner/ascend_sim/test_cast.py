"""Cast with every RoundMode against a Python reference of each rounding rule.

Why: precision conversion is where emulators most often round the wrong way (ties, directed
modes, saturation); kernels that quantise or accumulate in float depend on it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from .simtools import KERNELS

CAP = 2048
NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD = range(7)
NAMES = {
    NONE: "CAST_NONE",
    RINT: "CAST_RINT",
    FLOOR: "CAST_FLOOR",
    CEIL: "CAST_CEIL",
    ROUND: "CAST_ROUND",
    TRUNC: "CAST_TRUNC",
    ODD: "CAST_ODD",
}
NP = {
    "half": np.float16,
    "float": np.float32,
    "int32_t": np.int32,
    "int16_t": np.int16,
    "int8_t": np.int8,
    "uint8_t": np.uint8,
    "int64_t": np.int64,
    "bfloat16_t": np.uint16,
}


def to_int(v: np.ndarray, mode: int, t) -> np.ndarray:
    v = v.astype(np.float64)
    r = {
        RINT: np.rint,
        NONE: np.rint,
        FLOOR: np.floor,
        CEIL: np.ceil,
        TRUNC: np.trunc,
        ROUND: lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5),
    }[mode](v)
    info = np.iinfo(t)
    return np.clip(r, info.min, info.max).astype(t)


def narrow(v: np.ndarray, mode: int, to_small, bits_of, from_bits, step) -> np.ndarray:
    """Directed rounding onto a small float format from its nearest-even conversion."""
    out = []
    for x in v.astype(np.float64):
        r = to_small(x)
        rv = float(r)
        if rv == x or math.isnan(x):
            out.append(bits_of(r))
            continue
        down, up = (
            (from_bits(step(bits_of(r), -1 if rv > 0 else 1)), r)
            if rv > x
            else (r, from_bits(step(bits_of(r), 1 if rv >= 0 else -1)))
        )
        if float(down) > float(up):
            down, up = up, down
        if mode in (NONE, RINT):
            pick = r
        elif mode == FLOOR:
            pick = down
        elif mode == CEIL:
            pick = up
        elif mode == TRUNC:
            pick = down if x > 0 else up
        elif mode == ROUND:
            d0, d1 = x - float(down), float(up) - x
            pick = (up if x > 0 else down) if d0 == d1 else (down if d0 < d1 else up)
        else:  # ODD: the neighbour whose last mantissa bit is 1
            pick = down if bits_of(down) & 1 else up
        out.append(bits_of(pick))
    return np.array(out, np.uint16)


def half_bits(h):
    return int(np.float16(h).view(np.uint16))


def half_from(b):
    return np.uint16(b).view(np.float16)


def half_step(b, d):
    return b + d if not (b & 0x8000) else b - d if d > 0 else b + abs(d)


def to_half(v, mode):
    return narrow(v, mode, np.float16, half_bits, half_from, lambda b, d: b + d).view(np.float16)


def bf16_rne(x: float) -> int:
    u = int(np.float32(x).view(np.uint32))
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


class BF:
    def __init__(self, bits):
        self.bits = bits

    def __float__(self):
        return float(np.uint32(self.bits << 16).view(np.float32))


def to_bf16(v, mode):
    return narrow(v, mode, lambda x: BF(bf16_rne(x)), lambda b: b.bits, BF, lambda b, d: b + d)


CASES = [
    ("float", "half", [NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD]),
    ("half", "float", [NONE]),
    ("float", "int32_t", [RINT, FLOOR, CEIL, ROUND, TRUNC]),
    ("half", "int32_t", [RINT, FLOOR, CEIL, ROUND, TRUNC]),
    ("half", "int8_t", [NONE, FLOOR, ROUND]),
    ("half", "uint8_t", [NONE, CEIL]),
    ("float", "int16_t", [TRUNC, RINT]),
    ("float", "int64_t", [FLOOR]),
    ("float", "float", [RINT, FLOOR, CEIL, ROUND, TRUNC]),
    ("int32_t", "float", [NONE, TRUNC]),
    ("int16_t", "half", [NONE]),
    ("uint8_t", "half", [NONE]),
    ("float", "bfloat16_t", [RINT, FLOOR, CEIL, TRUNC]),
    ("bfloat16_t", "float", [NONE]),
]


def source(src: str, rng) -> np.ndarray:
    if src in ("float", "half"):
        # Many exact ties (k + 0.5) and values between representable neighbours.
        v = np.concatenate([rng.uniform(-200, 200, CAP // 2), np.arange(CAP // 2) * 0.5 - 250.25])
        return v.astype(NP[src])
    if src == "bfloat16_t":
        return (rng.uniform(-100, 100, CAP).astype(np.float32).view(np.uint32) >> 16).astype(
            np.uint16
        )
    info = np.iinfo(NP[src])
    return rng.integers(max(info.min, -20_000_000), min(info.max, 20_000_000), CAP).astype(NP[src])


def expected(src, dst, x, mode):
    xv = (
        x.astype(np.float64)
        if src != "bfloat16_t"
        else (x.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    )
    if dst == "half":
        return to_half(xv, mode)
    if dst == "bfloat16_t":
        return to_bf16(xv, mode)
    if dst == "float":
        if src == "float":
            return (
                to_int(xv, mode, np.int64).astype(np.float32)
                if mode != RINT
                else np.rint(xv).astype(np.float32)
            )
        if src == "int32_t" and mode == TRUNC:
            return np.array(
                [
                    np.float32(v)
                    if abs(float(np.float32(v))) <= abs(v)
                    else np.nextafter(np.float32(v), np.float32(0))
                    for v in xv
                ],
                np.float32,
            )
        return xv.astype(np.float32)
    return to_int(xv, mode, NP[dst])


@pytest.mark.parametrize("src,dst,modes", CASES, ids=[f"{s}->{d}" for s, d, _ in CASES])
def test_cast_level2(sim, src, dst, modes):
    exe = sim.build(KERNELS / "cast.cpp", args=3, defines={"SRC": src, "DST": dst})
    rng = np.random.default_rng(7)
    x = source(src, rng)
    n = 1000
    for mode in modes:
        z0 = np.zeros(CAP, NP[dst])
        p = np.zeros(16, np.int32)
        p[0], p[1] = mode, n
        run = sim.run(exe, 1, [x, z0, p])
        assert run.returncode == 0, run.stderr
        want = expected(src, dst, x[:n], mode)
        got = run.outputs[1][:n]
        np.testing.assert_array_equal(
            got.view(want.dtype), want, err_msg=f"{src}->{dst} {NAMES[mode]}"
        )
        assert not run.outputs[1][n:].any()


def test_cast_level0_half_to_float(sim):
    exe = sim.build(KERNELS / "cast.cpp", args=3, defines={"SRC": "half", "DST": "float"})
    x = np.arange(CAP, dtype=np.float16) * np.float16(0.25)
    z0 = np.full(CAP, -1, np.float32)
    p = np.zeros(16, np.int32)
    # 64 lanes per repeat (the wider type decides), first 40 active, 3 repeats;
    # src repeat stride 4 blocks (64 halves), dst repeat stride 8 blocks (64 floats).
    p[0], p[2], p[3], p[4], p[5], p[6] = NONE, 1, 40, 3, 8, 4
    run = sim.run(exe, 1, [x, z0, p])
    assert run.returncode == 0, run.stderr
    want = z0.copy()
    for r in range(3):
        want[r * 64 : r * 64 + 40] = x[r * 64 : r * 64 + 40].astype(np.float32)
    np.testing.assert_array_equal(run.outputs[1], want)


def test_unsupported_round_mode_is_bad_param(sim):
    exe = sim.build(KERNELS / "cast.cpp", args=3, defines={"SRC": "half", "DST": "float"})
    p = np.zeros(16, np.int32)
    p[0], p[1] = FLOOR, 64
    run = sim.run(exe, 1, [np.zeros(CAP, np.float16), np.zeros(CAP, np.float32), p])
    assert run.returncode == 3
    assert "BAD_PARAM" in run.codes("error")
    assert "does not support RoundMode::CAST_FLOOR" in run.stderr
