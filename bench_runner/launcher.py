"""The plumbing between the evaluator and a kernel process on cpu-sim.

It writes the generated sources that wrap a submission (``main.cpp`` with the fixed driver, the
signature line appended to ``kernel.cpp``), the manifest the driver reads, the input
and poison files of each trial, and it parses the binary result stream the driver sends back.
The stream comes from a process the kernel shares, so the parser trusts nothing in it: every
length is bounded and every name is checked against what was asked for.
"""

from __future__ import annotations

import secrets
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench_runner import dtypes, op_project
from bench_runner.tasks import CaseSpec, Task

HARNESS_DIR = Path(__file__).resolve().parent / "harness"
TILING_CAPACITY = 16384
_KERNEL_MODES = {"aiv": "AIV_MODE", "aic": "AIC_MODE", "mix": "MIX_MODE"}

REC_BUFFER, REC_REPORT, REC_STATUS, REC_TILING, REC_TRIAL_DONE, REC_UNCHANGED, REC_SUBMITTED = 1, 2, 3, 4, 5, 6, 7
#: What a REC_SUBMITTED record may name: the submitted code that runs from there on.
SUBMITTED_KINDS = frozenset({"host", "kernel"})
_HEADER = struct.Struct("=4sIIIQ")


class StreamError(ValueError):
    """Raised when the result stream is malformed (a kernel wrote over the driver's output)."""


# ---------------------------------------------------------------------------------------------
# Generated sources


#: C math functions that the emulator's headers declare with C linkage at global scope
#: (<cmath>, <cstdlib>): a kernel entry named like one (NPUKernelBench's `sqrt`)
#: conflicts with it on cpu-sim only (the NPU's kernel compile shows no libm), so on cpu-sim such an
#: entry is compiled under another name (entry_symbol) in the kernel and the driver.
C_LIBRARY_NAMES = frozenset({
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos",
    "cosh", "erf", "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod",
    "frexp", "hypot", "ldexp", "lgamma", "log", "log10", "log1p", "log2", "logb", "lround", "modf",
    "nearbyint", "nextafter", "pow", "remainder", "rint", "round", "sin", "sinh", "sqrt", "tan", "tanh",
    "tgamma", "trunc", "div", "labs",
})


def entry_symbol(task: Task) -> str:
    """The kernel entry's name in cpu-sim's build: the task's, unless it is a C library name."""
    return f"akgen_kernel_{task.entry}" if task.entry in C_LIBRARY_NAMES else task.entry


def kernel_declaration(task: Task, *, name: str | None = None) -> str:
    params = ", ".join(f"GM_ADDR {a}" for a in task.kernel_args)
    return f'extern "C" __global__ __aicore__ void {name or task.entry}({params})'


#: File name the appended signature check reports in diagnostics (an evaluator-made file).
SIGNATURE_FILE = "akgen_signature.h"


#: ``g_coreType`` in a compile pass for one core type: the constant bisheng gives it there.
CORE_TYPE_CONSTANTS = {"aic": "(::AscendC::AIC)", "aiv": "(::AscendC::AIV)"}


def core_passes(task: Task, kernel: str) -> tuple[str, ...]:
    """The passes cpu-sim compiles the kernel in, as bisheng compiles one per core type.

    An AIV or AIC launch has one core type, so ``g_coreType`` is that constant (Catlass's
    ``template <int32_t CORE_TYPE = g_coreType>`` needs it at compile time). A MIX launch whose
    code names ``g_coreType`` is compiled twice, once per core type ("aic", "aiv"); its cores each
    run their own pass's code (a dispatcher in the AIC pass picks by the running core). Any other
    MIX kernel is one pass ("mix") where ``g_coreType`` reads the running core at run time.
    """
    if task.kernel_mode in CORE_TYPE_CONSTANTS:
        return (task.kernel_mode,)
    return ("aic", "aiv") if "g_coreType" in kernel else ("mix",)


def pass_symbol(task: Task, core: str) -> str:
    """The entry's symbol in one pass of a kernel compiled once per core type."""
    return f"{entry_symbol(task)}__{core}"


def kernel_source(task: Task, submitted: str, host: op_project.HostFiles | None = None, *,
                  rename_entry: bool = False, core: str | None = None, split: bool = False) -> str:
    """The submitted kernel with the task's entry declaration appended, and in front what
    CANN's op build supplies to an op kernel (op_project.kernel_prelude: DTYPE_<NAME> macros for
    the task's dtypes; the host's tiling header when ``host`` brings one).

    A kernel whose entry point differs from the task's (name, parameters, extern "C") then
    fails with a conflicting-declaration error reported in ``akgen_signature.h``. Appending,
    rather than wrapping the file in another translation unit, keeps the user's line numbers
    and lets the emulator's precompiled header apply to the kernel's own first include.
    ``rename_entry`` (cpu-sim): an entry named like a C library function becomes entry_symbol.
    ``core`` (cpu-sim, core_passes): the pass's core type, "aic" or "aiv" making ``g_coreType``
    that constant. ``split``: the pass is one of two; its entry is pass_symbol, and the AIC pass
    also defines entry_symbol, which runs the running core's pass.
    """
    renames: dict[str, str] = {}
    if split and core is not None:
        renames[task.entry] = pass_symbol(task, core)
    elif rename_entry and entry_symbol(task) != task.entry:
        renames[task.entry] = entry_symbol(task)
    if core is not None:  # cpu-sim: the emulator's headers treat this translation unit as device code
        renames["AKGEN_DEVICE_TU"] = "1"
    if core in CORE_TYPE_CONSTANTS:
        renames["g_coreType"] = CORE_TYPE_CONSTANTS[core]
    text = (
        op_build_prelude(task, submitted, host, renames)
        + submitted
        + ("" if submitted.endswith("\n") else "\n")
        + f'#line 1 "{SIGNATURE_FILE}"\n'
        + "// akgen: the task's kernel signature (see api_desc.md).\n"
        + f"{kernel_declaration(task)};\n"
    )
    if split and core == "aic":
        text += _pass_dispatcher(task)
    return text


def _pass_dispatcher(task: Task) -> str:
    """The entry of a kernel compiled once per core type: each core runs its own pass."""
    args = ", ".join(task.kernel_args)
    aic, aiv = pass_symbol(task, "aic"), pass_symbol(task, "aiv")
    return (
        f"#undef {task.entry}\n"
        f"{kernel_declaration(task, name=aiv)};\n"
        f"{kernel_declaration(task, name=entry_symbol(task))} {{\n"
        f"    if (ASCEND_IS_AIC) {aic}({args}); else {aiv}({args});\n"
        "}\n"
    )


def op_build_prelude(task: Task, kernel: str, host: op_project.HostFiles | None,
                     renames: Mapping[str, str] | None = None) -> str:
    """op_project.kernel_prelude for this task: one dtype combination, the task's (plus the
    entry rename of ``renames``, a macro like the others)."""
    tensors = [(t.name, t.dtype.cpp) for t in (*task.inputs, *task.outputs)]
    pairs = op_project.combination_pairs(tensors, host.main if host is not None else None)
    header = host.tiling_header if host is not None else None
    return op_project.kernel_prelude({**op_project.dtype_macros(pairs), **(renames or {})}, header, kernel,
                                     header_text=host.headers.get(header) if host is not None and header else None)


def host_box_files(host: op_project.HostFiles) -> dict[str, str]:
    """The host side as the build directory holds it: a plain host is host.cpp; a bundle's files
    sit beside a host.cpp that includes its .cpp files (one translation unit), each file starting
    with a ``#line`` that points into the submitted host text, so diagnostics name host.cpp and
    the line the user wrote."""
    if not host.sources:
        return {"host.cpp": host.main}
    out = {"host.cpp": "".join(f'#include "{name}"\n' for name in host.sources)}  # one TU, bundle order
    for name, text in {**host.sources, **host.headers}.items():
        out[name] = f'#line {host.first_lines[name]} "host.cpp"\n{text}'
    return out


def op_type(task: Task) -> str:
    """The task's op in CANN's spelling: the kernel entry in CamelCase (add_custom -> AddCustom)."""
    return "".join(part[:1].upper() + part[1:] for part in task.entry.split("_"))


def host_tu(task: Task) -> str:
    """Compiles host.cpp and exports its tiling function: the one its OpDef registers, else its
    optiling::TilingFunc (which CANN hosts often declare static); harness/akgen_tiling_entry.h."""
    return (
        "// Generated by akgen: compiles the host tiling and hands its TilingFunc to the driver.\n"
        '#include "host.cpp"\n'
        '#include "akgen_tiling_entry.h"\n'
        "ge::graphStatus akgen_call_tiling(gert::TilingContext* context) "
        f'{{ return akgen_tiling::run(context, "{op_type(task)}"); }}\n'
    )


def main_cpp(task: Task) -> str:
    """The fixed driver: runs the host tiling (if the task has one) and launches the kernel."""
    mode = _KERNEL_MODES[task.kernel_mode]
    args = ", ".join(f'h.gm("{a}")' for a in task.kernel_buffers)
    host = "#define AKGEN_HAS_HOST 1\n" if task.needs_host else ""
    return (
        "// Generated by akgen: the fixed driver around the kernel under test.\n"
        '#include "tikicpulib.h"\n'
        f"{host}"
        '#include "akgen_harness.h"\n\n'
        f"{kernel_declaration(task, name=entry_symbol(task))};\n\n"
        "int main(int argc, char** argv) {\n"
        "    akgen_harness::Harness h(argc, argv);\n"
        "    while (h.next_trial()) {\n"
        "        h.prepare();\n"
        f"        AscendC::SetKernelMode(KernelMode::{mode});\n"
        "        if (h.has_tiling_key()) ICPU_SET_TILING_KEY(h.tiling_key());\n"
        f"        ICPU_RUN_KF({entry_symbol(task)}, h.block_dim(), {args});\n"
        "        h.finish_trial();\n"
        "    }\n"
        "    return h.done();\n"
        "}\n"
    )


# ---------------------------------------------------------------------------------------------
# Trials, manifests, poison


@dataclass(slots=True)
class Trial:
    """One launch of the kernel on one set of inputs."""

    index: int
    seed: int
    #: True for the case's listed seed (the one published in task.toml).
    listed: bool
    inputs: dict[str, np.ndarray]
    golden: dict[str, np.ndarray]
    poison: dict[str, np.ndarray] = field(default_factory=dict)


#: Per float dtype: the quiet-NaN bits of the poison, the mask of its payload bits (the payload
#: is never 0, so the poison is never the canonical NaN a kernel may compute) and the unsigned
#: integer of the dtype's width.
_NAN_POISON = {"float32": (0x7FC00000, (1 << 22) - 1, np.uint32), "float16": (0x7E00, (1 << 9) - 1, np.uint16),
               "bfloat16": (0x7FC0, (1 << 6) - 1, np.uint16)}
#: Bits of a positive infinity per float dtype: a value is a NaN when its bits without the sign
#: are above them.
_INF_BITS = {"float32": 0x7F800000, "float16": 0x7C00, "bfloat16": 0x7F80}
_ABS_MASK = {"float32": 0x7FFFFFFF, "float16": 0x7FFF, "bfloat16": 0x7FFF}


def poison_like(spec_dtype: dtypes.DType, shape: tuple[int, ...], avoid: np.ndarray | None = None) -> np.ndarray:
    """Fresh, unpredictable filler for an output buffer, so unwritten elements fail.

    Floats get quiet NaNs with random non-zero payloads, bools an invalid byte, integers random
    values. Where ``avoid`` (the golden) would equal the filler, the filler is nudged (a NaN of
    the golden faces a zero), so no unwritten element can pass by luck; that tells a kernel
    reading its output buffer nothing useful. Built in place from raw random words, in the
    dtype's width (no wider temporaries); the golden's NaNs are found from their bit patterns.
    """
    n = int(np.prod(shape, dtype=np.int64))
    name = spec_dtype.name
    if name == "bool":
        return np.full(shape, 0xA5, dtype=np.uint8).view(np.bool_)
    nbytes = n * spec_dtype.itemsize
    words = np.random.PCG64(secrets.randbits(64)).random_raw(-(-nbytes // 8))  # fresh, writable
    raw = words.view(np.uint8)[:nbytes]
    if name in _NAN_POISON:
        quiet, payload_mask, word = _NAN_POISON[name]
        out = raw.view(word)
        np.bitwise_and(out, word(payload_mask), out=out)
        np.bitwise_or(out, out == 0, out=out)  # payload 0 -> 1
        np.bitwise_or(out, word(quiet), out=out)
        out = out.view(spec_dtype.storage)
    else:
        out = raw.view(spec_dtype.storage)
    out = out.reshape(shape)
    if avoid is not None:
        if spec_dtype.is_float:
            at = _nan_positions(np.asarray(avoid), spec_dtype)
            if at.size:
                out.reshape(-1)[at] = 0
        else:
            same = out == avoid
            if same.any():
                out[same] = out[same] + np.array(1, dtype=spec_dtype.storage)
    return out


def _nan_positions(values: np.ndarray, dtype: dtypes.DType, step: int = 1 << 18) -> np.ndarray:
    """Flat indices of the NaNs among stored float values, from their bits (no float64 copy)."""
    if values.dtype != dtype.storage:  # not in storage form: decode as the rules do
        return np.flatnonzero(np.isnan(dtypes.to_float64(values, dtype)))
    word = _NAN_POISON[dtype.name][2]
    bits = np.ascontiguousarray(values).reshape(-1).view(word)
    abs_mask, inf = word(_ABS_MASK[dtype.name]), word(_INF_BITS[dtype.name])
    found = []
    for start in range(0, bits.size, step):
        nan = (bits[start:start + step] & abs_mask) > inf
        if nan.any():
            found.append(np.flatnonzero(nan) + start)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)


def write_trial_files(task: Task, case_index: int, trial: Trial, inputs_dir: Path) -> dict[str, str]:
    """Write one trial's GM buffers; returns buffer name -> path relative to the box.

    Each array goes from its own memory to the file in one write (no intermediate bytes copy).
    """
    files = {}
    for spec in task.inputs:
        files[spec.name] = _write(inputs_dir, f"c{case_index}t{trial.index}_{spec.name}.bin", trial.inputs[spec.name])
    prepare_poison(task, trial)
    for spec in task.outputs:
        if spec.alias is not None:
            continue
        files[spec.name] = _write(inputs_dir, f"c{case_index}t{trial.index}_{spec.name}.bin",
                                  trial.poison[spec.name])
    return files


def prepare_poison(task: Task, trial: Trial) -> None:
    """Draw the poison of every output buffer of ``trial`` that has none yet (write_trial_files
    does it; the evaluator may do it earlier, while it draws a large case's trials on threads)."""
    for spec in task.outputs:
        if spec.alias is None and spec.name not in trial.poison:
            golden = trial.golden[spec.name]
            trial.poison[spec.name] = poison_like(spec.dtype, golden.shape, golden)


def _write(folder: Path, name: str, array: np.ndarray) -> str:
    path = folder / name
    data = np.ascontiguousarray(array)
    with open(path, "wb") as f:
        if data.size:
            f.write(memoryview(data.reshape(-1).view(np.uint8)))
    return f"../{folder.name}/{name}"


def manifest_text(task: Task, case: CaseSpec, trial_files: list[dict[str, str]], *, report_path: str,
                  platform: Mapping[str, Any]) -> str:
    """The driver's manifest (whitespace-separated words; paths and names contain no spaces)."""
    lines = ["akgen-manifest 1", f"report {report_path}",
             f"block_dim {task.block_dim or 0}", f"tiling_capacity {TILING_CAPACITY}",
             f"platform {platform['aiv_cores']} {platform['aic_cores']} {platform['ub_bytes']} {platform['soc']}"]
    for kind, specs in (("input", task.inputs), ("output", task.outputs)):
        for spec in specs:
            shape = case.shape_of(spec)
            lines.append(f"{kind} {spec.name} {spec.dtype.name} {len(shape)} {' '.join(map(str, shape))}".rstrip())
            if spec.list:  # the shape of each tensor of the list: count, then ndim and dims of each
                shapes = case.lists[spec.name]
                lines.append(f"list {spec.name} {len(shapes)} " + " ".join(f"{len(s)} {' '.join(map(str, s))}".rstrip()
                                                                         for s in shapes))
    for name, value in case.attributes.items():
        if isinstance(value, bool):
            lines.append(f"attr bool {name} {int(value)}")
        elif isinstance(value, int):
            lines.append(f"attr int {name} {value}")
        elif isinstance(value, float):
            lines.append(f"attr float {name} {value!r}")
        else:
            lines.append(f"attr str {name} {str(value).replace(' ', '_') or '_'}")
    for i, files in enumerate(trial_files):
        lines.append(f"trial {i}")
        lines += [f"buf {name} {path}" for name, path in files.items()]
    lines.append("end")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Result stream


@dataclass(slots=True)
class TrialOutput:
    #: Buffer name -> its bytes: a read-only memoryview into the stream's data (no copy).
    buffers: dict[str, bytes | memoryview] = field(default_factory=dict)
    report: bytes | None = None
    tiling: dict[str, Any] | None = None
    done: bool = False
    #: Input buffers the driver found byte-equal to their input files after the launch (sent as
    #: that fact, not as bytes): :func:`buffers_of` gives them back as the trial's own inputs.
    unchanged: set[str] = field(default_factory=set)


@dataclass(slots=True)
class StreamResult:
    trials: list[TrialOutput]
    #: "ok" once the driver finished every trial, else the code of the driver's own failure.
    status: str | None = None
    status_message: str = ""
    #: Submitted code the driver announced before running it ("host", "kernel"): a failure after
    #: such a record may be that code's doing (evaluate.py decides whose it is).
    submitted: set[str] = field(default_factory=set)


def buffers_of(output: TrialOutput, trial: Trial) -> dict[str, bytes | memoryview]:
    """Every buffer the driver returned for ``trial``: the ones it sent, and each input it
    reported unchanged as that input's own bytes (a read-only view, no copy)."""
    out: dict[str, bytes | memoryview] = {}
    for name in output.unchanged:
        data = trial.inputs.get(name)
        if data is not None:
            out[name] = memoryview(np.ascontiguousarray(data).reshape(-1).view(np.uint8)).toreadonly()
    out.update(output.buffers)  # a buffer sent as bytes is what the kernel left
    return out


def parse_stream(data: bytes | bytearray | memoryview, *, trials: int, buffer_names: set[str],
                 max_buffer_bytes: int) -> StreamResult:
    """Parse the driver's records; a truncated tail (the process died) is fine, garbage is not.

    Buffers come back as read-only views into ``data`` (which they keep alive), not as copies:
    ``np.frombuffer`` reads them in place. Reports, tiling and status records are small and copied.
    """
    view = memoryview(data).cast("B") if not isinstance(data, bytes) else memoryview(data)
    view = view.toreadonly()
    size = len(view)
    out = [TrialOutput() for _ in range(trials)]
    result = StreamResult(out)
    pos = 0
    while pos < size:
        if size - pos < _HEADER.size:
            break  # died while writing a header
        magic, kind, trial, name_len, n = _HEADER.unpack_from(view, pos)
        if magic != b"AKGR" or (trial >= trials and kind != REC_STATUS) or name_len > 64:
            raise StreamError(f"malformed result record at byte {pos}")
        start = pos + _HEADER.size
        end = start + name_len + n
        if n > max_buffer_bytes or end > size:
            break  # died while writing a payload (or claims more than can exist)
        name = bytes(view[start:start + name_len]).decode("ascii", errors="replace")
        payload = view[start + name_len:end]
        pos = end
        t = out[min(trial, trials - 1)]
        if kind == REC_BUFFER:
            if name not in buffer_names:
                raise StreamError(f"result stream names an unknown buffer {name!r}")
            t.buffers[name] = payload
        elif kind == REC_UNCHANGED:
            if name not in buffer_names or n:
                raise StreamError(f"malformed 'unchanged' record for {name!r}")
            t.unchanged.add(name)
        elif kind == REC_REPORT:
            t.report = bytes(payload)
        elif kind == REC_TILING:
            if len(payload) >= 24:
                block_dim, workspace, key = struct.unpack_from("=QQQ", payload)
                t.tiling = {"block_dim": int(block_dim), "workspace_bytes": int(workspace),
                            "tiling_key": int(key), "tiling_bytes": bytes(payload[24:280]).hex()[:512]}
        elif kind == REC_TRIAL_DONE:
            t.done = True
        elif kind == REC_SUBMITTED:
            if name not in SUBMITTED_KINDS or n:
                raise StreamError(f"malformed 'submitted' record for {name!r}")
            result.submitted.add(name)
        elif kind == REC_STATUS:
            result.status = name
            result.status_message = bytes(payload).decode("utf-8", errors="replace")[:2000]
        else:
            raise StreamError(f"unknown result record kind {kind}")
    return result
