"""Tensor element types as tasks name them, and their numpy storage.

numpy has no bfloat16, so bfloat16 tensors are stored as uint16 bit patterns; :func:`to_float64`
and :func:`from_float64` are the only places that know it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class DType:
    name: str
    storage: np.dtype
    is_float: bool
    #: C++ spelling in AscendC kernels, used in prompts and generated code.
    cpp: str

    @property
    def itemsize(self) -> int:
        return int(self.storage.itemsize)


_DTYPES = {
    d.name: d
    for d in (
        DType("float16", np.dtype(np.float16), True, "half"),
        DType("bfloat16", np.dtype(np.uint16), True, "bfloat16_t"),
        DType("float32", np.dtype(np.float32), True, "float"),
        DType("int8", np.dtype(np.int8), False, "int8_t"),
        DType("uint8", np.dtype(np.uint8), False, "uint8_t"),
        DType("int16", np.dtype(np.int16), False, "int16_t"),
        DType("int32", np.dtype(np.int32), False, "int32_t"),
        DType("int64", np.dtype(np.int64), False, "int64_t"),
        DType("bool", np.dtype(np.bool_), False, "bool"),
    )
}

NAMES: tuple[str, ...] = tuple(_DTYPES)


def get(name: str) -> DType:
    """Look a dtype up by its task-file name; KeyError lists the valid names."""
    try:
        return _DTYPES[name]
    except KeyError:
        raise KeyError(f"unknown dtype {name!r}; expected one of {', '.join(NAMES)}") from None


def to_float64(array: np.ndarray, dtype: DType) -> np.ndarray:
    """Widen stored values to float64 for comparison (bfloat16 bit patterns decoded)."""
    if dtype.name == "bfloat16":
        bits = array.astype(np.uint32) << 16
        return bits.view(np.float32).astype(np.float64)
    return array.astype(np.float64)


def from_float64(values: np.ndarray, dtype: DType) -> np.ndarray:
    """Round float64 values to the stored dtype (round-to-nearest-even for bfloat16)."""
    if dtype.name == "bfloat16":
        f32 = np.ascontiguousarray(values, dtype=np.float32)
        bits = f32.view(np.uint32).astype(np.uint64)
        nan = np.isnan(f32)
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        out = rounded.astype(np.uint16)
        out[nan] = 0x7FC0
        return out
    if dtype.name == "bool":
        return values.astype(np.bool_)
    if not dtype.is_float:
        info = np.iinfo(dtype.storage)
        return np.clip(np.rint(values), info.min, info.max).astype(dtype.storage)
    return values.astype(dtype.storage)
