"""`akgen suite import-npukb` (issue #19): NPUKernelBench task folders become akgen tasks.

The first tests build an NPUKernelBench-shaped task of our own (our ScaleAdd op project as the
answer, a torch Model, get_inputs and a test_cases.csv written here) and run it through the import
and the evaluator. The last one imports real NPUKernelBench tasks from a checkout named by
AKGEN_NPUKB_DIR (kept outside the repository) and is skipped without it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the import runs NPUKernelBench's torch references (train extra)")

from bench_runner import npukb_import, npukb_validation, tasks  # noqa: E402
from bench_runner.errors import TaskFormatError  # noqa: E402
from bench_runner.evaluate import evaluate  # noqa: E402
from bench_runner.op_project import OpDefTensor  # noqa: E402
from bench_runner.toolchains import cpu_sim  # noqa: E402

PROJECT = Path(__file__).parent / "fixtures" / "op_projects" / "scale_add"
REPO = Path(__file__).resolve().parents[2]

_MODULE = """\
import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y, alpha):
        return x * alpha + y
"""

_PREPARE = """\
import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    return torch.randn(shape, dtype=dtype), torch.randn(shape, dtype=dtype), float(param["alpha"])


def get_init_inputs(param, device=None):
    return []
"""

_CASES = """\
case_id;shape;dtype;alpha
0;[4, 256];float16;0.5
1;[33, 7];float16;-2.0
2;[1001];float32;0.25
3;[4, 1024];float32;1.5
4;[8];complex64;1.0
"""


def _fake_npukb(root: Path) -> Path:
    task = root / "tasks" / "level1" / "Math" / "ScaleAdd"
    shutil.copytree(PROJECT, task / "answer" / "0")
    (task / "validation").mkdir(parents=True)
    (task / "validation" / "module.py").write_text(_MODULE, encoding="utf-8")
    (task / "validation" / "prepare_inputs.py").write_text(_PREPARE, encoding="utf-8")
    (task / "validation" / "test_cases.csv").write_text(_CASES, encoding="utf-8")
    (task / "api_desc.md").write_text("ScaleAdd: z = x * alpha + y.\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, npukb_import.ImportReport]:
    root = _fake_npukb(tmp_path_factory.mktemp("npukb"))
    out = tmp_path_factory.mktemp("suite")
    return out, npukb_import.import_suite(root, out)


def test_one_akgen_task_per_dtype_combination_and_rank(imported: tuple[Path, npukb_import.ImportReport]) -> None:
    out, report = imported
    (rec,) = report.tasks
    assert rec.skipped is None and rec.level == 1
    assert sorted(rec.slugs) == ["scale_add_fp16", "scale_add_fp32_1d", "scale_add_fp32_2d"]
    # the complex64 case has no akgen dtype: dropped with its reason, the others kept
    assert len(rec.dropped_cases) == 1 and rec.dropped_cases[0].startswith("c4")
    spec = tomllib.loads((out / "scale_add_fp16" / "task.toml").read_text())
    assert [(t["name"], t["dtype"]) for t in spec["inputs"] + spec["outputs"]] == [
        ("x", "float16"), ("y", "float16"), ("z", "float16")]
    assert spec["attributes"] == {"alpha": 0.5} and spec["cases"][1]["attributes"] == {"alpha": -2.0}
    assert spec["cases"][1]["dims"] == {"x_d0": 33, "x_d1": 7, "y_d0": 33, "y_d1": 7, "z_d0": 33, "z_d1": 7}
    assert spec["workspace"] is True and spec["entry"] == "scale_add"
    assert spec["kernel_mode"] == "aiv"  # vector code: the AIV cores
    loaded = tasks.load_suite(out)
    assert not loaded.errors and len(loaded.tasks) == 3


@pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim is not available here")
def test_the_imported_expert_passes_and_a_wrong_one_fails(imported: tuple[Path, npukb_import.ImportReport]) -> None:
    out, _ = imported
    task = tasks.get_task("scale_add_fp16", out)
    host = task.expert_host.read_text()
    kernel = task.expert_kernel.read_text()
    r = evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics)
    # the torch reference really judges: x * alpha - y is wrong
    wrong = kernel.replace("Add(out, a, b,", "Sub(out, a, b,")
    assert wrong != kernel
    r = evaluate(task, wrong, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer", r.reason


@pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim is not available here")
def test_both_of_the_benchmarks_paths_on_one_task(imported: tuple[Path, npukb_import.ImportReport]) -> None:
    """NPUKernelBench's kernel_only_mode is akgen's device_only (the answer's op_host is the
    task's fixed host, the model writes op_kernel alone); host+device takes the model's op_host
    too. One task offers both, and a host that tiles wrongly fails only where it is submitted."""
    out, _ = imported
    task = tasks.get_task("scale_add_fp16", out)
    assert task.paths == ("device_only", "host_device")
    kernel, host = task.expert_kernel.read_text(), task.expert_host.read_text()
    assert evaluate(task, kernel, path="device_only", use_cache=False, baseline=False).verdict == "passed"
    assert evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False).verdict == "passed"
    wrong = host.replace("tiling.set_alpha(*alpha);", "tiling.set_alpha(*alpha + 1.0f);")
    assert wrong != host
    assert evaluate(task, kernel, wrong, path="host_device", use_cache=False, baseline=False).verdict == "wrong_answer"
    assert evaluate(task, kernel, path="device_only", use_cache=False, baseline=False).verdict == "passed"
    # A kernel whose macros make the static rules read the preprocessed tokens (token pasting):
    # on device_only they judge the kernel's lines, not the task's fixed op_host that the kernel
    # includes for its tiling struct (REGISTER_TILING_DATA_CLASS expands to emulator internals).
    pasting = "#define AKGEN_CAT(a, b) a##b\n" + kernel
    result = evaluate(task, pasting, path="device_only", use_cache=False, baseline=False)
    assert result.verdict == "passed", (result.reason, [d.message for d in result.diagnostics[:2]])


def test_tasks_that_do_not_map_are_skipped_with_a_reason(tmp_path: Path) -> None:
    root = _fake_npukb(tmp_path / "npukb")
    prep = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation" / "prepare_inputs.py"
    prep.write_text(_PREPARE.replace("return []", "return [3]"), encoding="utf-8")
    module = prep.parent / "module.py"  # a Model that takes (and ignores) the extra init value
    module.write_text(_MODULE.replace("class Model(nn.Module):\n", "class Model(nn.Module):\n"
                                      "    def __init__(self, *extra):\n        super().__init__()\n\n"),
                      encoding="utf-8")
    assert "*extra" in module.read_text()
    (rec,) = npukb_import.import_suite(root, tmp_path / "out").tasks
    assert rec.slugs == [] and "1 from get_init_inputs for 2 OpDef inputs + 1 attributes" in (rec.skipped or "")


def test_model_init_parameters_fill_the_opdefs_attributes(tmp_path: Path) -> None:
    """Issue #31: Model(*init) parameters (a norm's epsilon, a loss's reduction) map onto the
    OpDef's inputs and attributes after get_inputs' values; the reference builds Model with them."""
    root = _fake_npukb(tmp_path / "npukb")
    val = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation"
    (val / "module.py").write_text(_MODULE.replace(
        "class Model(nn.Module):\n    def forward(self, x, y, alpha):\n        return x * alpha + y",
        "class Model(nn.Module):\n    def __init__(self, alpha):\n        super().__init__()\n"
        "        self.alpha = alpha\n\n    def forward(self, x, y):\n        return x * self.alpha + y"),
        encoding="utf-8")
    (val / "prepare_inputs.py").write_text(_PREPARE.replace(
        ', float(param["alpha"])', "").replace("return []", 'return [float(param["alpha"])]'), encoding="utf-8")
    assert "__init__" in (val / "module.py").read_text() and "return [float" in (val / "prepare_inputs.py").read_text()
    out = tmp_path / "out"
    (rec,) = npukb_import.import_suite(root, out).tasks
    assert rec.skipped is None and "scale_add_fp16" in rec.slugs, rec
    spec = tomllib.loads((out / "scale_add_fp16" / "task.toml").read_text())
    assert spec["cases"][1]["attributes"] == {"alpha": -2.0}
    if not cpu_sim.CpuSim().availability().ok:
        pytest.skip("cpu-sim is not available here")
    task = tasks.get_task("scale_add_fp16", out)
    r = evaluate(task, task.expert_kernel.read_text(), task.expert_host.read_text(), path="host_device",
                 use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:2])


@pytest.mark.skipif(not os.environ.get("AKGEN_NPUKB_DIR"),
                    reason="AKGEN_NPUKB_DIR is not set: no NPUKernelBench checkout on this machine (it is never "
                           "bundled; clone github.com/weich97/NPUKernelBench and point the variable at it)")
def test_real_npukernelbench_tasks_import_and_their_experts_pass(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bench_runner.cli", "suite", "import-npukb",
                           os.environ["AKGEN_NPUKB_DIR"], "--out", str(tmp_path / "suite"), "--only", "AddCustom",
                           "ForeachLerpScalar", "FastGelu", "--eval", "--json"], cwd=REPO, capture_output=True, text=True, timeout=900,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(proc.stdout)
    assert all(t["slugs"] for t in data["tasks"]), data["tasks"]
    evaluated = data["evaluation"]["levels"]
    assert sum(v["passed"] for v in evaluated.values()) == sum(v["tasks"] for v in evaluated.values()), data


@pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim is not available here")
def test_eval_judges_every_expert_in_parallel_with_case_verdicts_and_the_benchmark_score(
        imported: tuple[Path, npukb_import.ImportReport], tmp_path: Path) -> None:
    """`--eval` (issue #31): the experts run in a pool of processes; the report keeps each case's
    verdict, and the benchmark's score counts the dropped complex64 case and a wrong expert's case
    as failed — 3 of the 5 cases pass: 60 for the task, L1 60, total 0.2 × 60 = 12 (by hand)."""
    import io

    from bench_runner import cli, suite_eval

    src, report = imported
    out = tmp_path / "suite"
    shutil.copytree(src, out)
    expert = out / "scale_add_fp32_1d" / "expert" / "kernel.cpp"
    wrong = expert.read_text().replace("Add(out, a, b,", "Sub(out, a, b,")
    assert wrong != expert.read_text()
    expert.write_text(wrong)
    summary = cli._evaluate_imported(report, out, io.StringIO(), quiet=True)
    by_slug = {t["slug"]: t for t in summary["tasks"]}
    assert {s: (t["verdict"], t["cases"]) for s, t in by_slug.items()} == {
        "scale_add_fp16": ("passed", {"c0": True, "c1": True}),
        "scale_add_fp32_1d": ("wrong_answer", {"c2": False}),
        "scale_add_fp32_2d": ("passed", {"c3": True}),
    }
    assert summary["levels"] == {1: {"tasks": 3, "compiled": 3, "ran": 3, "passed": 2}}
    assert summary["npukb_score"] == {"levels": {"1": 60.0}, "total": 12.0, "tasks": 1}
    assert suite_eval.default_workers() >= 1


LIST_PROJECT = Path(__file__).parent / "fixtures" / "op_projects" / "list_scale"

_LIST_MODULE = """\
from typing import List

import torch
import torch_npu
import torch.nn as nn


class Model(nn.Module):
    def forward(self, xs: List[torch.Tensor]) -> List[torch.Tensor]:
        return [x * 2 for x in xs]
"""

_LIST_PREPARE = """\
import torch


def get_inputs(param, device=None):
    return ([torch.randn(s, dtype=torch.float32) for s in eval(param["shapes"])],)


def get_init_inputs(param, device=None):
    return []
"""

_LIST_CASES = """\
case_id;shapes
0;[[8]]
1;[[16, 8], [40], [2, 4, 8]]
2;[[4096], [8], [3000, 8]]
"""


def test_a_tensor_list_task_imports_and_its_expert_passes(tmp_path: Path) -> None:
    """Issue #31: a DYNAMIC input and output (NPUKernelBench's Foreach family) import as tensor
    lists, the driver passes the kernel list descriptors that ListTensorDesc reads, the host sees
    each tensor through GetDynamicInputShape, and a kernel that skips the last tensor fails."""
    task_dir = tmp_path / "npukb" / "tasks" / "level2" / "Foreach" / "ListScale"
    shutil.copytree(LIST_PROJECT, task_dir / "answer" / "0")
    (task_dir / "validation").mkdir(parents=True)
    (task_dir / "validation" / "module.py").write_text(_LIST_MODULE, encoding="utf-8")
    (task_dir / "validation" / "prepare_inputs.py").write_text(_LIST_PREPARE, encoding="utf-8")
    (task_dir / "validation" / "test_cases.csv").write_text(_LIST_CASES, encoding="utf-8")
    out = tmp_path / "suite"
    (rec,) = npukb_import.import_suite(tmp_path / "npukb", out).tasks
    assert rec.skipped is None and rec.slugs == ["list_scale_fp32"] and not rec.dropped_cases, rec
    spec = tomllib.loads((out / "list_scale_fp32" / "task.toml").read_text())
    assert [(t["name"], t.get("list")) for t in spec["inputs"] + spec["outputs"]] == [("x", True), ("y", True)]
    assert spec["cases"][1]["lists"] == {"x": [[16, 8], [40], [2, 4, 8]], "y": [[16, 8], [40], [2, 4, 8]]}
    assert spec["cases"][1]["dims"] == {"x_d0": 232, "y_d0": 232}
    if not cpu_sim.CpuSim().availability().ok:
        pytest.skip("cpu-sim is not available here")
    task = tasks.get_task("list_scale_fp32", out)
    kernel, host = task.expert_kernel.read_text(), task.expert_host.read_text()
    r = evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:3])
    lazy = kernel.replace("i < t.count;", "i + 1 < t.count;")
    assert lazy != kernel
    r = evaluate(task, lazy, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer", r.reason
    assert r.cases and not r.cases[0].passed  # the evaluator stops at the first failing case


def test_integer_draws_that_cpu_torch_refuses_run_as_a_float_draw_cast() -> None:
    """Issue #31: NPUKernelBench's generators call torch.randn / uniform_ with int dtypes, which
    CPU torch refuses; the import draws the same numbers in float32 and casts them."""
    npukb_validation._install_integer_draws()
    torch.manual_seed(7)
    got = torch.randn(64, dtype=torch.int32)
    torch.manual_seed(7)
    want = torch.randn(64, dtype=torch.float32).to(torch.int32)
    assert got.dtype == torch.int32 and torch.equal(got, want)
    torch.manual_seed(7)
    filled = torch.empty(64, dtype=torch.int8).uniform_(-20, 20)
    torch.manual_seed(7)
    assert torch.equal(filled, torch.empty(64).uniform_(-20, 20).to(torch.int8))
    assert torch.randn(3).dtype == torch.float32  # float draws are untouched


def test_large_cases_get_longer_run_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cases above LARGE_CASE_ELEMENTS are kept with their own, longer run limits (the sandbox's
    defaults suit small cases); above MAX_CASE_ELEMENTS they are dropped with their size."""
    monkeypatch.setattr(npukb_import, "LARGE_CASE_ELEMENTS", 3 * 4 * 256 + 1)
    monkeypatch.setattr(npukb_import, "MAX_CASE_ELEMENTS", 3 * 4 * 1024)
    root = _fake_npukb(tmp_path / "npukb")
    (rec,) = npukb_import.import_suite(root, tmp_path / "out").tasks
    spec = tomllib.loads((tmp_path / "out" / "scale_add_fp32_2d" / "task.toml").read_text())
    assert spec["cases"][0]["limits"] == npukb_import.LARGE_CASE_LIMITS  # [4, 1024]: 3 x 4096 elements
    fp16 = tomllib.loads((tmp_path / "out" / "scale_add_fp16" / "task.toml").read_text())
    assert all("limits" not in c for c in fp16["cases"])  # [4, 256] and [33, 7]: small
    assert not any("larger than" in d for d in rec.dropped_cases)
    monkeypatch.setattr(npukb_import, "HUGE_CASE_ELEMENTS", 3 * 4 * 1024 - 1)
    npukb_import.import_suite(root, tmp_path / "out3")
    spec = tomllib.loads((tmp_path / "out3" / "scale_add_fp32_2d" / "task.toml").read_text())
    assert spec["cases"][0]["limits"] == npukb_import.HUGE_CASE_LIMITS
    monkeypatch.setattr(npukb_import, "MAX_CASE_ELEMENTS", 3 * 4 * 1024 - 1)
    (rec,) = npukb_import.import_suite(root, tmp_path / "out2").tasks
    assert any(d.startswith("c3: larger than 12287 elements in all (12288)") for d in rec.dropped_cases), rec


def test_cases_are_typed_column_by_column_as_the_benchmarks_runner_types_them(tmp_path: Path) -> None:
    """pandas reads test_cases.csv, then NPUKernelBench's preprocess_dataframe makes whole-number
    and boolean columns ints: ``torch.tensor(param["scale"])`` must be int64 for a ``1.0`` column,
    and a ``False`` cell must be false."""
    csv_path = tmp_path / "test_cases.csv"
    csv_path.write_text("case_id;scale;alpha;flag;shape;gap\n0;1.0;0.5;True;[2, 3];\n1;2.0;1;False;[4];7\n",
                        encoding="utf-8")
    rows = npukb_validation.read_cases(csv_path)
    assert [r["scale"] for r in rows] == [1, 2] and all(type(r["scale"]) is int for r in rows)
    assert [r["alpha"] for r in rows] == [0.5, 1.0] and all(type(r["alpha"]) is float for r in rows)
    assert [r["flag"] for r in rows] == [1, 0]
    assert [r["shape"] for r in rows] == ["[2, 3]", "[4]"]
    assert rows[0]["gap"] != rows[0]["gap"] and rows[1]["gap"] == 7.0  # an empty cell is NaN: a float column


def test_the_benchmarks_default_rule_fails_an_element_only_past_both_limits_and_any_nan() -> None:
    want = torch.tensor([100.0, 0.001, 1.0], dtype=torch.float32)
    # 0.05 off 100 is within 1e-3 relative; 0.0009 off 0.001 is within 1e-3 absolute
    ok, diff, rel = npukb_validation.check_precision(want, want + torch.tensor([0.05, 0.0009, 0.0]), 1e-3, 1e-3)
    assert ok == 1 and diff.shape == (3,) and rel.shape == (3,)
    assert npukb_validation.check_precision(want, want + torch.tensor([0.0, 0.0, 0.002]), 1e-3, 1e-3)[0] == 0
    nan = torch.tensor([float("nan"), 0.001, 1.0])
    assert npukb_validation.check_precision(nan, nan, 1e-3, 1e-3)[0] == 0  # the benchmark fails any NaN
    bools = torch.tensor([True, False])
    assert npukb_validation.check_precision([bools], [bools], 1e-3, 1e-3)[0] == 1
    assert npukb_validation.check_precision([bools], [~bools], 1e-3, 1e-3)[0] == 0


_CUSTOM_CHECK = """

from framework.utils import check_precision


def custom_check_precision(param, outputs, outputs_new):
    return check_precision(outputs, outputs_new, max_abs_error=0.1, max_rel_error=0.1)
"""


@pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim is not available here")
def test_a_tasks_custom_precision_check_judges_and_unwritten_outputs_still_fail(tmp_path: Path) -> None:
    """Issue #31: the benchmark's own custom_check_precision decides (here a 0.1 tolerance, where
    the default is 1e-3), run by the evaluator on the golden and the kernel's outputs; it never
    lets through an element the kernel did not write, nor a NaN where the golden has a number."""
    root = _fake_npukb(tmp_path / "npukb")
    val = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation"
    # The reference is 0.05 away from what the answer computes: past the default, within 0.1.
    (val / "module.py").write_text(_MODULE.replace("return x * alpha + y", "return x * alpha + y + 0.05"),
                                   encoding="utf-8")
    out = tmp_path / "plain"
    npukb_import.import_suite(root, out)
    task = tasks.get_task("scale_add_fp32_2d", out)
    kernel, host = task.expert_kernel.read_text(), task.expert_host.read_text()
    r = evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer" and "precision check failed" in r.reason, r.reason

    (val / "prepare_inputs.py").write_text(_PREPARE + _CUSTOM_CHECK, encoding="utf-8")
    out = tmp_path / "custom"
    npukb_import.import_suite(root, out)
    task = tasks.get_task("scale_add_fp32_2d", out)
    r = evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:2])

    (val / "prepare_inputs.py").write_text(_PREPARE + _CUSTOM_CHECK.replace(
        "return check_precision(outputs, outputs_new, max_abs_error=0.1, max_rel_error=0.1)",
        "return 1, None, None"), encoding="utf-8")
    out = tmp_path / "lenient"
    npukb_import.import_suite(root, out)
    task = tasks.get_task("scale_add_fp32_2d", out)
    lazy = kernel.replace("Add(out, a, b,", "Sub(out, a, b,")
    assert lazy != kernel
    assert evaluate(task, lazy, host, path="host_device", use_cache=False, baseline=False).verdict == "passed"
    nothing = _without_output_writes(kernel)
    r = evaluate(task, nothing, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer" and any(d.category == "unwritten_output" for d in r.diagnostics), r.reason
    # a check written as `abs_diff > tol` is false for NaN: NaN where the golden is finite still fails
    nans = kernel.replace("Add(out, a, b, static_cast<int32_t>(n));",
                          "Duplicate(out, static_cast<T>(__builtin_nanf(\"\")), static_cast<int32_t>(n));")
    assert nans != kernel
    r = evaluate(task, nans, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer" and any(d.category == "nan_inf" for d in r.diagnostics), r.reason


def _without_output_writes(kernel: str) -> str:
    """The answer with its last copy-out sent to the workspace: z is never written."""
    lazy = kernel.replace("CopyOut<PAD>(zGm[offset], out, n);", "CopyOut<PAD>(wGm[offset], out, n);")
    assert lazy != kernel
    return lazy


@pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim is not available here")
def test_a_check_that_raises_on_a_kernels_output_fails_that_output_not_the_judge(tmp_path: Path) -> None:
    """The task's check is trusted code that sees a kernel's output: raising on it (as the
    benchmark's runner counts a raising check) fails the case as wrong_answer; only a check that
    cannot judge the golden itself is the task's fault."""
    root = _fake_npukb(tmp_path / "npukb")
    val = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation"
    picky = ("\n\ndef custom_check_precision(param, outputs, outputs_new):\n"
             "    if not torch.allclose(outputs, outputs_new, atol=0.01):\n"
             "        raise ValueError('cannot judge this')\n"
             "    return 1, None, None\n")
    (val / "prepare_inputs.py").write_text(_PREPARE + picky, encoding="utf-8")
    npukb_import.import_suite(root, tmp_path / "out")
    task = tasks.get_task("scale_add_fp32_2d", tmp_path / "out")
    kernel, host = task.expert_kernel.read_text(), task.expert_host.read_text()
    assert evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False).verdict == "passed"
    r = evaluate(task, kernel.replace("Add(out, a, b,", "Sub(out, a, b,"), host, path="host_device",
                 use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer" and "could not judge the output (ValueError: cannot judge this)" in r.reason
    (val / "prepare_inputs.py").write_text(_PREPARE + picky.replace("if not torch.allclose", "if torch.allclose"),
                                           encoding="utf-8")
    npukb_import.import_suite(root, tmp_path / "broken")
    task = tasks.get_task("scale_add_fp32_2d", tmp_path / "broken")
    with pytest.raises(TaskFormatError, match="a check that accepts the golden"):  # as a golden that raises
        evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False)


def test_the_cli_keeps_its_report_with_the_checkouts_commit_in_the_suite(tmp_path: Path) -> None:
    """scripts/serve --npukb re-imports only when the checkout moved: it reads the commit the
    suite's import-report.json records, with every task's import (and skip reasons)."""
    from bench_runner import cli

    root = _fake_npukb(tmp_path / "npukb")
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "fixture"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    out = tmp_path / "suite"
    assert cli.main(["suite", "import-npukb", str(root), "--out", str(out)]) == 0
    report = json.loads((out / npukb_import.REPORT_FILE).read_text())
    assert report["checkout"] == {"path": str(root.resolve()), "commit": head}
    assert [t["name"] for t in report["tasks"]] == ["ScaleAdd"] and report["levels"]["1"]["imported"] == 1
    assert not tasks.load_suite(out).errors  # the report beside the task folders is not a task
    assert report["max_case_elements"] == npukb_import.MAX_CASE_ELEMENTS
    # A quick import drops the largest cases; the report says where the cap was and what went.
    capped = tmp_path / "capped"
    assert cli.main(["suite", "import-npukb", str(root), "--out", str(capped), "--max-case-elements", "3000"]) == 0
    report = json.loads((capped / npukb_import.REPORT_FILE).read_text())
    assert report["max_case_elements"] == 3000
    assert any("larger than 3000 elements" in d for d in report["tasks"][0]["dropped_cases"]), report["tasks"][0]


@pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim is not available here")
def test_an_imported_task_judges_every_case_for_the_benchmarks_per_case_score(tmp_path: Path) -> None:
    """NPUKernelBench scores passed cases / all cases: a kernel wrong on the first case must still
    be judged on the others (every_case = true in imported tasks); akgen's own tasks stop at the
    first failing case."""
    root = _fake_npukb(tmp_path / "npukb")
    val = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation"
    # The reference disagrees with the answer on c0 (1024 elements) only.
    (val / "module.py").write_text(_MODULE.replace(
        "return x * alpha + y", "return x * alpha + y + (0.5 if x.numel() == 1024 else 0.0)"), encoding="utf-8")
    out = tmp_path / "suite"
    npukb_import.import_suite(root, out)
    task = tasks.get_task("scale_add_fp16", out)
    assert task.every_case and [c.name for c in task.cases] == ["c0", "c1"]
    kernel, host = task.expert_kernel.read_text(), task.expert_host.read_text()
    r = evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer" and "case c0" in r.reason
    assert [(c.name, c.passed) for c in r.cases] == [("c0", False), ("c1", True)]
    toml = out / "scale_add_fp16" / "task.toml"
    toml.write_text(toml.read_text().replace("every_case = true", "every_case = false"), encoding="utf-8")
    task = tasks.get_task("scale_add_fp16", out)
    r = evaluate(task, kernel, host, path="host_device", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer" and [(c.name, c.passed) for c in r.cases] == [("c0", False)]


CATLASS_CUBE_ONLY = """
struct Kernel {
    template <int32_t CORE_TYPE = g_coreType> void operator()(Params const &params);
    template <> void operator()<AscendC::AIC>(Params const &params) {}
};
"""


@pytest.mark.parametrize(("kernel", "mode"), [
    (CATLASS_CUBE_ONLY, "aic"),
    (CATLASS_CUBE_ONLY + "template <> void Kernel::operator()<AscendC::AIV>(Params const &params) {}\n", "mix"),
    ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);", "aic"),
    ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);", "aiv"),
    ("if (g_coreType == AscendC::AIV) { DataCopy(a, b, 8); }", "aiv"),
])
def test_the_launch_mode_follows_the_core_types_the_answer_is_written_for(kernel: str, mode: str) -> None:
    """A Catlass kernel specialised for the AIC only runs on the cube cores; one specialised for
    both is a MIX launch (bisheng compiles a pass per core type); anything else is vector code."""
    assert npukb_import.kernel_mode(kernel) == mode


_PYBIND_RETURNS_Y = """\
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor custom_pybind_api(at::Tensor x, at::Tensor y, double alpha)
{
    EXEC_NPU_CMD(aclnnScaleAdd, x, y, alpha);  // return x; in a comment is no return
    return y;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
"""

_MODEL_NEW = """

import kernel_gen_ops


class ModelNew(nn.Module):
    def forward(self, x, y, alpha):
        return kernel_gen_ops.custom_pybind_api(x, y, alpha)
"""


def _in_place_npukb(root: Path, form: str) -> Path:
    """ScaleAdd written in place into y, in one of the two forms NPUKernelBench's in-place ops
    take: ``ref`` (the OpDef's output is named y, like the input: the kernel still gets it as its
    third argument) or ``returned`` (no OpDef output; pybind.cpp returns y; the kernel has two)."""
    _fake_npukb(root)
    answer = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "answer" / "0"
    host = answer / "op_host" / "scale_add.cpp"
    text = host.read_text()
    if form == "ref":
        text = text.replace('this->Output("z")', 'this->Output("y")')
    else:
        text = re.sub(r'this->Output\("z"\).*?;', "", text, flags=re.S)
        kernel = answer / "op_kernel" / "scale_add.cpp"
        k = kernel.read_text()
        k = k.replace("GM_ADDR y, GM_ADDR z, GM_ADDR workspace", "GM_ADDR y, GM_ADDR workspace")
        k = k.replace("op.Init(x, y, z,", "op.Init(x, y, y,")
        kernel.write_text(k)
        (answer.parent.parent / "validation" / "pybind.cpp").write_text(_PYBIND_RETURNS_Y)
        (answer.parent.parent / "validation" / "module.py").write_text(_MODULE + _MODEL_NEW)
    host.write_text(text)
    return root


@pytest.mark.parametrize(("form", "output"), [("ref", {"name": "y_ref", "alias": "y", "argument": True}),
                                              ("returned", {"name": "y_out", "alias": "y"})])
def test_in_place_ops_import_with_the_input_as_their_output(tmp_path: Path, form: str, output: dict) -> None:
    """Issue #31: NPUKernelBench's in-place ops (Sscal, Gemm's c, StridedSliceAssignV2's var) were
    skipped ("OpDef: no inputs or outputs found"). The output lives in the input's buffer; a ref
    output is still the kernel's argument. The expert passes; a kernel that leaves y alone fails."""
    root = _in_place_npukb(tmp_path / "npukb", form)
    out = tmp_path / "suite"
    recs = [r for r in npukb_import.import_suite(root, out).tasks]
    assert [r.skipped for r in recs] == [None], recs
    spec = tomllib.loads((out / "scale_add_fp16" / "task.toml").read_text())
    (got,) = spec["outputs"]
    assert {k: got[k] for k in ("name", "alias", "argument") if k in got} == output
    assert got["shape"] == next(t["shape"] for t in spec["inputs"] if t["name"] == "y")
    task = tasks.get_task("scale_add_fp16", out)
    assert task.kernel_args[:3] == (("x", "y", "y_ref") if form == "ref" else ("x", "y", "workspace"))
    assert task.kernel_buffers[:3] == (("x", "y", "y") if form == "ref" else ("x", "y", "workspace"))
    if not cpu_sim.CpuSim().availability().ok:
        pytest.skip("cpu-sim is not available here")
    kernel = task.expert_kernel.read_text()
    r = evaluate(task, kernel, path="device_only", use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:3])
    idle = kernel.replace("op.template Process", "if (false) op.template Process")
    assert idle != kernel
    r = evaluate(task, idle, path="device_only", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer", r.reason


def test_an_op_without_outputs_writes_the_input_its_binding_returns(tmp_path: Path) -> None:
    """Which input an output-less op writes is what the benchmark's binding returns when run,
    not a reading of its text: a ``return`` in a comment or another branch does not count."""
    root = _in_place_npukb(tmp_path / "npukb", "returned")
    pybind = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation" / "pybind.cpp"
    pybind.write_text(_PYBIND_RETURNS_Y.replace("return y;", "if (alpha > 1e9) { return x; }\n    return y;"))
    (rec,) = npukb_import.import_suite(root, tmp_path / "a").tasks
    assert rec.skipped is None and rec.binding == "pybind.cpp", rec
    (got,) = tomllib.loads((tmp_path / "a" / "scale_add_fp16" / "task.toml").read_text())["outputs"]
    assert got["alias"] == "y"
    pybind.write_text(_PYBIND_RETURNS_Y.replace("return y;", "return at::Tensor(); // return y;"))
    (rec,) = npukb_import.import_suite(root, tmp_path / "b").tasks
    assert rec.skipped == "OpDef: no outputs, and pybind.cpp returns none of the op's inputs", rec
    pybind.unlink()
    (rec,) = npukb_import.import_suite(root, tmp_path / "c").tasks
    assert rec.skipped.startswith("OpDef: no outputs, and the binding that says which input"), rec


_SWAPPED_MODULE = """\
import torch
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, y, x):
        return x * self.alpha + y


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, y, x):
        return kernel_gen_ops.scale_add_api(y, x, self.alpha)
"""

_SWAPPED_PREPARE = """\
import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    return torch.randn(shape, dtype=dtype), torch.randn(shape, dtype=dtype)


def get_init_inputs(param, device=None):
    return [float(param["alpha"])]
"""

# The binding takes the model's order (y, x) and hands the op its own (x, y, alpha, z), as an
# NPUKernelBench pybind.cpp does; a positional reading would give the op y as x.
_SWAPPED_PYBIND = """\
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include "pytorch_npu_helper.hpp"

at::Tensor scale_add_api(const at::Tensor& y, const at::Tensor& x, double alpha)
{
    TORCH_CHECK(x.sizes() == y.sizes(), "x and y differ in shape");
    at::Tensor z = torch::empty_like(x);
    float alpha_f = static_cast<float>(alpha);
    EXEC_NPU_CMD(aclnnScaleAdd, x, y, alpha_f, z);
    return z;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.doc() = "test binding";
    m.def("scale_add_api", &scale_add_api, "");
}
"""


def test_the_benchmarks_binding_routes_the_models_values_onto_the_op(tmp_path: Path) -> None:
    """Issue #31: what reaches the op is what the task's pybind.cpp passes to EXEC_NPU_CMD, not
    the order of get_inputs. The import compiles the benchmark's binding against akgen's torch
    shim and follows the call ModelNew makes; the expert then passes (a positional reading would
    swap x and y, and the expert would fail)."""
    root = _fake_npukb(tmp_path / "npukb")
    val = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation"
    (val / "module.py").write_text(_SWAPPED_MODULE, encoding="utf-8")
    (val / "prepare_inputs.py").write_text(_SWAPPED_PREPARE, encoding="utf-8")
    (val / "pybind.cpp").write_text(_SWAPPED_PYBIND, encoding="utf-8")
    out = tmp_path / "out"
    (rec,) = npukb_import.import_suite(root, out).tasks
    assert rec.skipped is None and rec.binding == "pybind.cpp" and rec.positional_cases == [], rec
    spec = json.loads((out / "scale_add_fp16" / "npukb" / "spec.json").read_text())
    assert spec["positions"] == [1, 0] and spec["sources"] == [["input", "y"], ["input", "x"], ["value"]]
    assert tomllib.loads((out / "scale_add_fp16" / "task.toml").read_text())["cases"][1]["attributes"] == {
        "alpha": -2.0}
    if not cpu_sim.CpuSim().availability().ok:
        pytest.skip("cpu-sim is not available here")
    task = tasks.get_task("scale_add_fp16", out)
    r = evaluate(task, task.expert_kernel.read_text(), path="device_only", use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:2])
    # the same files without the binding: the values in order, y where x belongs — judged wrong
    (val / "pybind.cpp").unlink()
    (rec,) = npukb_import.import_suite(root, tmp_path / "positional").tasks
    task = tasks.get_task("scale_add_fp16", tmp_path / "positional")
    r = evaluate(task, task.expert_kernel.read_text(), path="device_only", use_cache=False, baseline=False)
    assert r.verdict == "wrong_answer", r.reason


def test_a_case_the_binding_cannot_route_is_reported_with_its_reason(tmp_path: Path) -> None:
    """Where the binding stops on one case (its own check fails), that case goes by position and
    the report says so, with the binding's reason: no silent fallback."""
    root = _fake_npukb(tmp_path / "npukb")
    val = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation"
    (val / "module.py").write_text(_SWAPPED_MODULE.replace("forward(self, y, x)", "forward(self, x, y)"))
    (val / "prepare_inputs.py").write_text(_SWAPPED_PREPARE, encoding="utf-8")
    (val / "pybind.cpp").write_text(_SWAPPED_PYBIND.replace(
        'TORCH_CHECK(x.sizes() == y.sizes(), "x and y differ in shape");',
        'TORCH_CHECK(x.size(0) != 33, "no 33 rows");'), encoding="utf-8")
    (rec,) = npukb_import.import_suite(root, tmp_path / "out").tasks
    assert rec.skipped is None, rec
    assert len(rec.positional_cases) == 1 and rec.positional_cases[0].startswith("c1: "), rec
    assert "TORCH_CHECK failed: x.size(0) != 33" in rec.positional_cases[0]


def test_the_combination_is_the_column_whose_outputs_are_the_cases_too() -> None:
    """Cast lists float32 in several columns, each with another output dtype; the case's output
    dtype (as the binding allocates it or Model returns it) picks the column. Judged by the input
    alone, NPUKernelBench's fp32 -> int32 case got the fp16 column: its TilingFunc refused the
    attribute (dst_type 3, an int32 output) against a float16 output."""
    x = OpDefTensor("Input", "x", ("DT_FLOAT16", "DT_FLOAT", "DT_FLOAT"), False)
    y = OpDefTensor("Output", "y", ("DT_FLOAT", "DT_FLOAT16", "DT_INT32"), False)
    assert npukb_import._combination([x, y], ["float32", "int32"]) == 2
    assert npukb_import._combination([x, y], ["float32", "float16"]) == 1
    assert npukb_import._combination([x, y], ["float32", None]) == 1  # output unknown: the first that fits
    with pytest.raises(npukb_import.ImportSkip):
        npukb_import._combination([x, y], ["float32", "int8"])


_COMPUTED_MODULE = """\
import torch
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    def forward(self, x, alpha):
        return x * alpha + x * 2


class ModelNew(nn.Module):
    def forward(self, x, alpha):
        y = x * 2  # an op input ModelNew computes, as GeluGrad's gelu(x)
        return kernel_gen_ops.scale_add_api(y, x, alpha)
"""

_COMPUTED_PREPARE = """\
import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    return torch.randn(shape, dtype=dtype, requires_grad=True), float(param["alpha"])


def get_init_inputs(param, device=None):
    return []
"""


def test_an_input_model_new_computes_is_drawn_by_running_it(tmp_path: Path) -> None:
    """Issue #31: GeluGrad's ModelNew passes the op ``gelu(x)``, which get_inputs does not give;
    the import skipped such tasks. Now the input is drawn as the benchmark's runner makes it
    (ModelNew run up to its kernel_gen_ops call) and the expert passes; a value that requires
    grad reaches Model as one (GeGluGradV2 differentiates through it)."""
    root = _fake_npukb(tmp_path / "npukb")
    val = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "validation"
    (val / "module.py").write_text(_COMPUTED_MODULE, encoding="utf-8")
    (val / "prepare_inputs.py").write_text(_COMPUTED_PREPARE, encoding="utf-8")
    (val / "pybind.cpp").write_text(_SWAPPED_PYBIND, encoding="utf-8")
    out = tmp_path / "out"
    (rec,) = npukb_import.import_suite(root, out).tasks
    assert rec.skipped is None and rec.positional_cases == [], rec
    spec = json.loads((out / "scale_add_fp16" / "npukb" / "spec.json").read_text())
    assert spec["from_call"] == {"1": 0} and spec["positions"][1] == -1  # y: the call's first argument
    assert spec["forms"][0] == ["tensor_grad", "float16"]
    if not cpu_sim.CpuSim().availability().ok:
        pytest.skip("cpu-sim is not available here")
    task = tasks.get_task("scale_add_fp16", out)
    r = evaluate(task, task.expert_kernel.read_text(), path="device_only", use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:2])


def test_a_kernel_that_includes_its_op_kernel_subfolder_passes_the_token_rules(tmp_path: Path) -> None:
    """A CANN op_kernel folder may hold headers in subfolders (GeGluV2's ``tanh/*.h``); a kernel
    whose macros make the static rules read its preprocessed tokens included them as a
    "sandbox_violation" (an #include through a macro). The task's own headers are allowed by path."""
    root = _fake_npukb(tmp_path / "npukb")
    kernel_dir = root / "tasks" / "level1" / "Math" / "ScaleAdd" / "answer" / "0" / "op_kernel"
    (kernel_dir / "sub").mkdir()
    (kernel_dir / "sub" / "helper.h").write_text("#pragma once\nconstexpr int AKGEN_HELPER_ONE = 1;\n")
    kernel = kernel_dir / "scale_add.cpp"
    kernel.write_text('#include "sub/helper.h"\n#define AKGEN_CAT(a, b) a##b\n' + kernel.read_text())
    out = tmp_path / "out"
    (rec,) = npukb_import.import_suite(root, out).tasks
    assert rec.skipped is None, rec
    if not cpu_sim.CpuSim().availability().ok:
        pytest.skip("cpu-sim is not available here")
    task = tasks.get_task("scale_add_fp16", out)
    r = evaluate(task, task.expert_kernel.read_text(), path="device_only", use_cache=False, baseline=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:2])
