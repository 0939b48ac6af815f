"""The `akgen` command line: each subcommand works on the packaged suite, with the documented
exit statuses (0 passed, 1 not passed, 2 unusable input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_runner import cli, tasks
from bench_runner.contracts import SCHEMA_VERSION
from bench_runner.toolchains import cpu_sim

needs_sim = pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok,
                               reason="cpu-sim unavailable: " + cpu_sim.CpuSim().availability().reason)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    for name in ("suite", "prompt", "eval", "doctor"):
        assert name in out


def test_suite_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "suite", "list", "--json")
    rows = json.loads(out)
    assert code == 0 and {r["slug"] for r in rows} >= {"add_fp16_static", "relu_fp32_dynamic", "softmax_fp32_rows"}
    code, out, _ = run(capsys, "suite", "list", "--level", "2")
    assert code == 0 and "softmax_fp32_rows" in out and "add_fp16_static" not in out
    code, out, _ = run(capsys, "suite", "show", "relu_fp32_dynamic", "--json")
    assert code == 0 and json.loads(out)["kernel_args"] == ["x", "y", "tiling"]
    code, _, err = run(capsys, "suite", "show", "nope")
    assert code == 2 and "unknown task 'nope'" in err
    code, out, _ = run(capsys, "suite", "show", "matmul_fp16")
    big = next(line for line in out.splitlines() if "m4096_k4096_n4096" in line)
    assert code == 0 and big.endswith("(run limit 240 s)") and "run limit" not in out.replace(big, "")
    code, out, _ = run(capsys, "suite", "show", "matmul_fp16", "--json")
    assert json.loads(out)["cases"][-1]["limits"]["run_wall_s"] == 240.0


def test_suite_list_reports_a_malformed_task_without_traceback(capsys: pytest.CaptureFixture[str], suite: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.bench_runner.conftest import VALID_TOML, write_task

    write_task(suite, slug="broken", toml=VALID_TOML.replace('entry = "vadd"', 'entry = 3'))
    monkeypatch.setenv("AKGEN_SUITE_DIR", str(suite))
    code, _, err = run(capsys, "suite", "list")
    assert code == 2
    assert "broken/task.toml: field 'entry': expected" in err and "Traceback" not in err


def test_prompt_contains_spec_template_and_format_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "prompt", "--task", "relu_fp32_dynamic", "--path", "host_device")
    task = tasks.get_task("relu_fp32_dynamic")
    assert code == 0
    assert task.api_desc.strip() in out
    assert task.template_kernel.read_text().strip() in out
    assert "// file: kernel.cpp" in out and "// file: host.cpp" in out
    code, out, _ = run(capsys, "prompt", "--task", "add_fp16_static", "--path", "device_only")
    assert code == 0 and "exactly one ```cpp code block" in out
    code, _, err = run(capsys, "prompt", "--task", "add_fp16_static", "--path", "host_device")
    assert code == 2 and "does not offer" in err


def test_prompt_answer_round_trip() -> None:
    from bench_runner.prompt import extract_sources

    answer = "Here:\n```cpp\n// file: kernel.cpp\nint k;\n```\nand\n```cpp\n// file: host.cpp\nint h;\n```\n"
    assert extract_sources(answer, "host_device") == ("// file: kernel.cpp\nint k;\n", "// file: host.cpp\nint h;\n")
    assert extract_sources("```cpp\nint k;\n```", "device_only") == ("int k;\n", None)


def test_doctor_reports_toolchains(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "doctor", "--json")
    report = json.loads(out)
    by_name = {r["toolchain"]: r for r in report["toolchains"]}
    assert set(by_name) == {"cpu-sim", "cann"}
    assert by_name["cpu-sim"]["ok"] == cpu_sim.CpuSim().availability().ok
    assert code == (0 if any(r["ok"] for r in report["toolchains"]) else 3)


@needs_sim
def test_eval_exit_statuses_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    task = tasks.get_task("add_fp16_static")
    good = tmp_path / "good.cpp"
    good.write_text(task.expert_kernel.read_text())
    bad = tmp_path / "bad.cpp"
    bad.write_text(task.expert_kernel.read_text().replace("Add(zLocal", "Sub(zLocal"))
    cache = str(tmp_path / "cache")
    code, out, _ = run(capsys, "eval", "--task", "add_fp16_static", "--kernel", str(good), "--json",
                       "--cache-dir", cache)
    result = json.loads(out)
    assert code == 0 and result["verdict"] == "passed" and result["schema_version"] == SCHEMA_VERSION
    code, out, _ = run(capsys, "eval", "--task", "add_fp16_static", "--kernel", str(bad), "--cache-dir", cache)
    assert code == 1 and out.startswith("WRONG_ANSWER") and "[numerical_mismatch]" in out
    code, _, err = run(capsys, "eval", "--task", "add_fp16_static", "--kernel", str(tmp_path / "missing.cpp"))
    assert code == 2 and "not found" in err
    code, _, err = run(capsys, "eval", "--task", "no_such", "--kernel", str(good))
    assert code == 2 and "unknown task" in err
    code, _, err = run(capsys, "eval", "--task", "add_fp16_static", "--kernel", str(good), "--host", str(good))
    assert code == 2 and "does not offer the host_device path" in err


@needs_sim
def test_suite_validate_passes_on_the_packaged_suite(capsys: pytest.CaptureFixture[str]) -> None:
    # The whole suite is validated by tests/bench_runner/suites; here, the command on the samples.
    code, out, _ = run(capsys, "suite", "validate", "add_fp16_static", "relu_fp32_dynamic", "softmax_fp32_rows", "--json")
    report = json.loads(out)
    assert code == 0, [c for c in report["checks"] if not c["ok"]]
    checks = {(c["task"], c["check"]) for c in report["checks"]}
    assert ("relu_fp32_dynamic", "expert/host_device") in checks
    assert ("softmax_fp32_rows", "template/device_only") in checks
