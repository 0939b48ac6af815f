"""The driver's manifest and result stream: generated sources, parsing, and hostile input."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from bench_runner import launcher, reference, tasks
from tests.bench_runner.conftest import write_task, written_trial


def _record(kind: int, trial: int, name: str, payload: bytes) -> bytes:
    return struct.pack("=4sIIIQ", b"AKGR", kind, trial, len(name), len(payload)) + name.encode() + payload


def test_stream_round_trip_and_truncated_tail() -> None:
    data = (_record(launcher.REC_BUFFER, 0, "z", b"abcd") + _record(launcher.REC_TRIAL_DONE, 0, "done", b"")
            + _record(launcher.REC_STATUS, 1, "ok", b""))
    parsed = launcher.parse_stream(data, trials=1, buffer_names={"z"}, max_buffer_bytes=16)
    assert parsed.trials[0].buffers == {"z": b"abcd"} and parsed.trials[0].done and parsed.status == "ok"
    cut = launcher.parse_stream(data[:30], trials=1, buffer_names={"z"}, max_buffer_bytes=16)
    assert cut.status is None and not cut.trials[0].done


def test_an_unchanged_input_comes_back_as_the_trials_own_bytes() -> None:
    x = np.arange(8, dtype=np.float16)
    trial = launcher.Trial(0, 1, True, {"x": x}, {"z": x})
    data = (_record(launcher.REC_UNCHANGED, 0, "x", b"") + _record(launcher.REC_BUFFER, 0, "z", b"abcd")
            + _record(launcher.REC_TRIAL_DONE, 0, "done", b""))
    parsed = launcher.parse_stream(data, trials=1, buffer_names={"x", "z"}, max_buffer_bytes=64)
    got = launcher.buffers_of(parsed.trials[0], trial)
    assert parsed.trials[0].unchanged == {"x"} and bytes(got["x"]) == x.tobytes() and got["z"] == b"abcd"
    with pytest.raises(TypeError):
        got["x"][0] = 1  # read-only: the trial's inputs cannot be altered through it
    # An "unchanged" record with a payload, or for a buffer that does not exist, is garbage.
    for bad in (_record(launcher.REC_UNCHANGED, 0, "x", b"1"), _record(launcher.REC_UNCHANGED, 0, "nope", b"")):
        with pytest.raises(launcher.StreamError):
            launcher.parse_stream(bad, trials=1, buffer_names={"x", "z"}, max_buffer_bytes=64)


@pytest.mark.parametrize("bad", [
    b"XXXX" + b"\0" * 20,
    _record(launcher.REC_BUFFER, 0, "secret_file", b""),
    _record(launcher.REC_BUFFER, 7, "z", b""),
    _record(99, 0, "z", b""),
])
def test_stream_rejects_garbage(bad: bytes) -> None:
    with pytest.raises(launcher.StreamError):
        launcher.parse_stream(bad, trials=1, buffer_names={"z"}, max_buffer_bytes=16)


def test_oversized_payload_claim_is_not_trusted() -> None:
    data = struct.pack("=4sIIIQ", b"AKGR", launcher.REC_BUFFER, 0, 1, 1 << 40) + b"z"
    parsed = launcher.parse_stream(data, trials=1, buffer_names={"z"}, max_buffer_bytes=16)
    assert parsed.trials[0].buffers == {}


def test_generated_sources_pin_the_signature_and_launch_every_arg(suite: Path) -> None:
    task = tasks.load_task(write_task(suite))
    src = launcher.kernel_source(task, "// line 1\n// line 2")
    # in front: the op build's DTYPE macros for the task's tensors, then the kernel at its own line 1
    prelude, kernel = src.split('#line 1 "kernel.cpp"\n', 1)
    assert "#define DTYPE_X " in prelude and "#define ORIG_DTYPE_Z " in prelude
    assert kernel.startswith("// line 1\n// line 2\n#line 1 \"akgen_signature.h\"\n")
    assert src.rstrip().endswith('extern "C" __global__ __aicore__ void vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling);')
    main = launcher.main_cpp(task)
    assert 'ICPU_RUN_KF(vadd, h.block_dim(), h.gm("x"), h.gm("y"), h.gm("z"), h.gm("tiling"));' in main
    assert "#define AKGEN_HAS_HOST 1" in main and "KernelMode::AIV_MODE" in main
    assert 'akgen_tiling::run(context, "Vadd")' in launcher.host_tu(task)


def test_manifest_lists_shapes_attrs_and_trial_files(suite: Path, tmp_path: Path) -> None:
    task, case, trial, files = written_trial(suite, tmp_path)
    text = launcher.manifest_text(task, case, [files], report_path="/tmp/r.json",
                                  platform={"aiv_cores": 48, "aic_cores": 24, "ub_bytes": 196608, "soc": "S"})
    assert "input x float32 1 1000" in text and "output z float32 1 1000" in text
    assert "block_dim 0" in text and text.rstrip().endswith("end")
    assert files["z"] == "../in/c1t0_z.bin"
    folder = tmp_path / "in"
    assert np.isnan(np.fromfile(folder / "c1t0_z.bin", dtype=np.float32)).all()
    assert np.array_equal(np.fromfile(folder / "c1t0_x.bin", dtype=np.float32), trial.inputs["x"])


def test_inputs_are_reproducible_per_seed_and_differ_across_seeds(suite: Path) -> None:
    task = tasks.load_task(write_task(suite))
    a = reference.make_inputs(task, task.cases[0], 11)["x"]
    assert np.array_equal(a, reference.make_inputs(task, task.cases[0], 11)["x"])
    assert not np.array_equal(a, reference.make_inputs(task, task.cases[0], 12)["x"])
