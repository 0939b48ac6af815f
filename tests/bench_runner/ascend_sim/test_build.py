"""build.py: the g++ command works with and without the cached precompiled header, and the
cache is built safely by concurrent callers.

Why: the evaluator compiles inside a sandbox that only sees the include and cache directories;
a half-written cache or a command that needs one would break every evaluation.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench_runner.ascend_sim import build

from .simtools import HOST, KERNELS


def test_public_contract():
    assert build.DEFAULT_SOC == "Ascend910B2"
    assert set(build.SOC_NAMES) >= {
        "Ascend910B1",
        "Ascend910B2",
        "Ascend910B3",
        "Ascend910B4",
        "Ascend310P3",
    }
    inc = build.include_dir()
    assert (inc / "kernel_operator.h").is_file() and (inc / "tikicpulib.h").is_file()
    soc_h = (inc / "ascend_sim" / "soc.h").read_text()
    for name in build.SOC_NAMES:
        assert f'"{name}"' in soc_h


def test_a_cache_someone_else_can_write_is_neither_used_nor_built_into(tmp_path, monkeypatch):
    """The cached runtime object is linked into every kernel as found: where another local user
    can write (or has planted a symlink), they would choose the emulator's accounting code."""
    root = tmp_path / "pch"
    monkeypatch.setenv("ASCEND_SIM_CACHE_DIR", str(root))
    planted = root / build.fingerprint()
    (planted / build.DRIVER_PCH_DIR).mkdir(parents=True)
    for name in (build.PCH_HEADER, build.PCH_NAME, build.RUNTIME_OBJ, "READY", f"{build.DRIVER_PCH_DIR}/{build.PCH_NAME}"):
        (planted / name).write_text("")
    argv = build.compile_command([KERNELS / "add_custom.cpp"], tmp_path / "prog")
    assert str(planted / build.RUNTIME_OBJ) in argv  # complete and ours: used as found

    root.chmod(0o777)
    assert str(planted / build.RUNTIME_OBJ) not in build.compile_command([KERNELS / "add_custom.cpp"], tmp_path / "p")
    assert build.ensure_pch() is None  # and nothing is built there either
    root.chmod(0o755)
    planted.chmod(0o777)
    assert build.PREBUILT_FLAG not in build.compile_command([KERNELS / "add_custom.cpp"], tmp_path / "p")
    planted.chmod(0o755)
    moved = tmp_path / "elsewhere"
    planted.rename(moved)
    planted.symlink_to(moved)
    assert build.PREBUILT_FLAG not in build.compile_command([KERNELS / "add_custom.cpp"], tmp_path / "p")


@pytest.mark.slow
def test_command_without_cache_compiles(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_SIM_CACHE_DIR", str(tmp_path / "empty-cache"))
    argv = build.compile_command([KERNELS / "add_custom.cpp", HOST], tmp_path / "prog")
    assert build.PREBUILT_FLAG not in argv
    assert {"-std=c++17", "-DASCENDC_CPU_DEBUG", "-pthread"} <= set(argv)
    argv = argv[:1] + ["-DKERNEL_NAME=add_custom", "-DKERNEL_ARGS=3"] + argv[1:]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_concurrent_cache_builds(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    code = "from bench_runner.ascend_sim import build; print(build.ensure_pch())"
    env = {
        **os.environ,
        "ASCEND_SIM_CACHE_DIR": str(cache),
        "PYTHONPATH": str(Path(build.__file__).parents[2]),
    }
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=600)[0].strip() for p in procs]
    assert outs[0] == outs[1] != "None"
    d = Path(outs[0])
    assert sorted(p.name for p in d.iterdir()) == sorted(
        [build.PCH_HEADER, build.PCH_NAME, build.RUNTIME_OBJ, "READY", build.DRIVER_PCH_DIR]
    )
    assert (d / build.DRIVER_PCH_DIR / build.PCH_NAME).is_file()  # the drivers' own precompiled prelude
    assert [p.name for p in cache.iterdir()] == [d.name]  # no leftover temporary directories
    monkeypatch.setenv("ASCEND_SIM_CACHE_DIR", str(cache))
    argv = build.compile_command([KERNELS / "add_custom.cpp", HOST], tmp_path / "prog")
    assert build.PREBUILT_FLAG in argv and f"-I{d}" in argv and str(d / build.RUNTIME_OBJ) in argv
    argv = (
        argv[:1] + ["-DKERNEL_NAME=add_custom", "-DKERNEL_ARGS=3", "-Winvalid-pch", "-H"] + argv[1:]
    )
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert f"! {d / build.PCH_NAME}" in proc.stderr  # GCC used the precompiled header


def test_fingerprint_tracks_headers(tmp_path, monkeypatch):
    before = build.fingerprint()
    inc = tmp_path / "include"
    shutil.copytree(build.include_dir(), inc)
    monkeypatch.setattr(build, "include_dir", lambda: inc)
    assert build.fingerprint() == before
    (inc / "ascend_sim" / "soc.h").write_text(
        (inc / "ascend_sim" / "soc.h").read_text() + "\n// changed\n"
    )
    assert build.fingerprint() != before
