"""The cann toolchain without hardware: availability reasons, commands, generated driver sources.

Running on an NPU is not possible here; ``test_runs_on_a_real_npu`` is skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bench_runner import launcher, tasks
from bench_runner.ascend_sim import build
from bench_runner.toolchains.cann import Cann, npu_arch
from tests.bench_runner.conftest import write_task

#: The AscendCL header the NPU harness includes: cpu-sim's own acl/acl.h (the same API, on host memory).
ACL_INCLUDE = build.include_dir()


@pytest.fixture
def fake_home(tmp_path: Path) -> Path:
    home = tmp_path / "ascend-toolkit" / "latest"
    (home / "compiler" / "ccec_compiler" / "bin").mkdir(parents=True)
    (home / "compiler" / "ccec_compiler" / "bin" / "bisheng").write_text("#!/bin/sh\n")
    (home / "version.info").write_text("Version=8.1.RC1\n")
    return home


def test_unavailable_without_ascend_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    a = Cann().availability()
    assert not a.ok and "ASCEND_HOME_PATH" in a.reason


def test_unavailable_without_a_device(fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_CANN_SOC", "Ascend910B2")
    a = Cann(str(fake_home)).availability()
    assert not a.ok and "davinci" in a.reason
    assert Cann(str(fake_home)).identity("Ascend910B2") == {"name": "cann", "version": "cann-8.1.RC1",
                                                              "soc": "Ascend910B2"}


def test_compile_command_uses_bisheng_direct_launch(fake_home: Path) -> None:
    argv = Cann(str(fake_home)).compile_command([Path("kernel.cpp"), Path("main.cpp"), Path("host_tu.cpp")],
                                                Path("prog"), soc="Ascend910B2")
    assert argv[0].endswith("ccec_compiler/bin/bisheng")
    assert "--npu-arch=dav-2201" in argv
    i = argv.index("kernel.cpp")
    assert argv[i - 1] == "-xasc" and argv[i + 1] == "-xnone"
    assert "-lascendcl" in argv and argv[-2:] == ["-o", "prog"]
    assert f"-I{launcher.HARNESS_DIR}" in argv
    assert npu_arch("Ascend310P3") == "dav-2002" and npu_arch("Ascend910_9392") == "dav-2201"


def test_generated_npu_driver_times_with_the_protocol(suite: Path, fake_home: Path) -> None:
    task = tasks.load_task(write_task(suite))
    main = Cann(str(fake_home)).main_cpp(task)
    assert 'vadd<<<d.block_dim(), nullptr, d.stream()>>>(d.gm("x"), d.gm("y"), d.gm("z"), d.gm("tiling"))' in main
    header = (launcher.HARNESS_DIR / "akgen_npu_harness.h").read_text()
    assert "#define AKGEN_WARMUP 10" in header and "#define AKGEN_TIMED_RUNS 100" in header
    assert "(256ull << 20)" in header and "aclrtEventElapsedTime" in header
    assert "sorted[sorted.size() / 2]" in header  # median


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_npu_driver_is_well_formed_cpp(tmp_path: Path) -> None:
    src = tmp_path / "check.cpp"
    src.write_text('#define AKGEN_HAS_HOST 1\n#include "akgen_npu_harness.h"\n'
                   "ge::graphStatus akgen_call_tiling(gert::TilingContext*) { return ge::GRAPH_SUCCESS; }\n"
                   "void kernel(uint8_t*) {}\n"
                   "int main(int argc, char** argv) { akgen_npu::Driver d(argc, argv);\n"
                   "  while (d.next_trial()) { d.prepare(); auto launch = [&] { kernel(d.gm(\"x\")); };\n"
                   "  launch(); d.sync(); d.finish_trial(launch); } return d.done(); }\n")
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", f"-I{ACL_INCLUDE}",
                           f"-I{launcher.HARNESS_DIR}", str(src)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_vendor_baseline_script_uses_torch_npu_and_the_protocol(suite: Path, fake_home: Path) -> None:
    task = tasks.load_task(write_task(suite))
    script = Cann(str(fake_home)).vendor_baseline_script(task, task.cases[0])
    compile(script, "baseline.py", "exec")
    assert "import torch, torch_npu" in script and "torch_reference" in script
    assert "range(10)" in script and "range(100)" in script and "256 * 1024 * 1024" in script
    assert "statistics.median" in script


@pytest.mark.skipif(not os.environ.get("ASCEND_HOME_PATH"), reason="ASCEND_HOME_PATH is not set: no CANN "
                    "toolkit or NPU on this machine, so the cann toolchain cannot run")
def test_runs_on_a_real_npu() -> None:
    from bench_runner.evaluate import evaluate

    task = tasks.get_task("add_fp16_static")
    result = evaluate(task, task.expert_kernel.read_text(), toolchain="cann", use_cache=False)
    assert result.passed, result.reason
