"""End to end on cpu-sim: every verdict, every taxonomy category cpu-sim produces, the cache,
and hostile kernels, each a one-line mutation of a sample task's expert kernel.

All submissions are evaluated once, two at a time in threads (as workers do), by a module
fixture; the tests then read their results.
"""

from __future__ import annotations

import dataclasses
import json
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bench_runner import reference, tasks
from bench_runner.contracts import SCHEMA_VERSION, EvaluationResult, SourceRejected
from bench_runner.errors import SubmissionError, UnknownTaskError
from bench_runner.evaluate import evaluate, trial_seed
from bench_runner.toolchains import cpu_sim

pytestmark = pytest.mark.skipif(cpu_sim.CpuSim().availability().ok is False,
                                reason="cpu-sim is not available here: " + cpu_sim.CpuSim().availability().reason)

ADD = tasks.get_task("add_fp16_static") if pytestmark.args[0] is False else None
RELU = tasks.get_task("relu_fp32_dynamic") if ADD else None


def _add(old: str, new: str) -> str:
    src = ADD.expert_kernel.read_text()
    assert old in src, old
    return src.replace(old, new, 1)


def _hostile(body: str, includes: str = "") -> str:
    """The expert add kernel with ``body`` run first on every core."""
    return _add('extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {\n',
                includes + 'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {\n'
                + body + "\n")


def _short(task: tasks.Task) -> tasks.Task:
    """The task with short run limits on every case (the task's own limits untouched: a case's
    limits are the ones its runs get), so hangs end in seconds."""
    short = {"run_wall_s": 4.0, "run_cpu_s": 4.0}
    return dataclasses.replace(task, cases=tuple(dataclasses.replace(c, limits={**c.limits, **short})
                                                 for c in task.cases))


ADD_CALL = "Add(zLocal, xLocal, yLocal, TILE_LENGTH);"
SUBMISSIONS: dict[str, dict[str, Any]] = {} if ADD is None else {
    "expert": {"kernel": ADD.expert_kernel.read_text(), "baseline": True},
    # wrong answers
    "sub": {"kernel": _add(ADD_CALL, "Sub(zLocal, xLocal, yLocal, TILE_LENGTH);")},
    "half_tiles": {"kernel": _add("loopCount = TILE_NUM * BUFFER_NUM;", "loopCount = TILE_NUM * BUFFER_NUM / 2;")},
    "neg_inf": {"kernel": _add(ADD_CALL, ADD_CALL + " Muls(zLocal, zLocal, (half)0.0f, TILE_LENGTH);"
                                              " Ln(zLocal, zLocal, TILE_LENGTH);")},
    "writes_input": {"kernel": _add("DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);",
                                    "DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);"
                                    " DataCopy(xGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);")},
    # compile errors
    "syntax": {"kernel": _add("op.Init(x, y, z);", "op.Init(x, y, z)")},
    "undeclared": {"kernel": _add(ADD_CALL, "Addd(zLocal, xLocal, yLocal, TILE_LENGTH);")},
    "api_mismatch": {"kernel": _add("DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);",
                                    "DataCopy(xLocal, xGm[progress * TILE_LENGTH]);")},
    "dtype": {"kernel": _add("LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();",
                             "LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();")},
    "template": {"kernel": _add("LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();",
                                "LocalTensor<half> xLocal = inQueueX.AllocTensor();")},
    "include": {"kernel": _add('#include "kernel_operator.h"', '#include "kernel_operator_v2.h"')},
    "link": {"kernel": _add("KernelAdd op;", "void akgen_helper(); akgen_helper(); KernelAdd op;")},
    "signature": {"kernel": _add("void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {\n    KernelAdd op;\n"
                                 "    op.Init(x, y, z);",
                                 "void add_custom(GM_ADDR x, GM_ADDR y) {\n    KernelAdd op;\n    op.Init(x, y, y);")},
    # run-time errors found by the emulator
    "ub_overflow": {"kernel": _add("pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));",
                                   "pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half) * 512);")},
    "queue_leak": {"kernel": _add("inQueueX.FreeTensor(xLocal);", "")},
    "gm_oob": {"kernel": _add("DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);",
                              "DataCopy(zGm[progress * TILE_LENGTH + TOTAL_LENGTH], zLocal, TILE_LENGTH);")},
    "misaligned": {"kernel": _add("DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);",
                                  "DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH - 1);")},
    "segfault": {"kernel": _hostile("    *(volatile int*)nullptr = 1;")},
    "endless_loop": {"kernel": _hostile("    for (volatile int spin = 0;; spin = spin + 1) {}"), "task": "short"},
    "bad_block_dim": {"task": "relu", "path": "host_device",
                      "kernel": RELU.expert_kernel.read_text(),
                      "host": RELU.host_template.read_text().replace(
                          "context->SetBlockDim((total + per_core - 1) / per_core);", "context->SetBlockDim(0);")},
    # forbidden or hostile
    "fopen_static": {"kernel": _hostile('    FILE* f = fopen("/etc/passwd", "r"); (void)f;', "#include <cstdio>\n")},
    "socket": {"kernel": _hostile("    (void)socket(2, 1, 0);", "#include <sys/socket.h>\n"), "checks": False},
    "include_passwd": {"kernel": _add('#include "kernel_operator.h"', '#include "kernel_operator.h"\n'
                                      '#include "/etc/passwd"'), "checks": False},
    "fork_bomb": {"kernel": _hostile("    for (;;) fork();", "#include <unistd.h>\n"), "checks": False,
                  "task": "short"},
    "flood": {"kernel": _hostile('    for (;;) std::printf("%0999d\\n", 7);', "#include <cstdio>\n"),
              "checks": False},
    "eat_memory": {"kernel": _hostile("    for (;;) { char* p = new char[1 << 26]; std::memset(p, 1, 4096); }",
                                      "#include <cstring>\n"), "checks": False},
    "write_outside": {"kernel": _hostile('    if (GetBlockIdx() == 0) { FILE* f = fopen("/usr/akgen-escape", "w");'
                                         ' if (f) { fputs("x", f); fclose(f); } }', "#include <cstdio>\n"),
                      "checks": False},
}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def results(cache_dir: Path) -> dict[str, EvaluationResult]:
    def run(name: str) -> EvaluationResult:
        spec = SUBMISSIONS[name]
        task = {"short": _short(ADD), "relu": RELU}.get(spec.get("task", ""), ADD)
        return evaluate(task, spec["kernel"], spec.get("host"), path=spec.get("path"), cache_dir=cache_dir,
                        static_checks=spec.get("checks", True), baseline=spec.get("baseline", False))

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(SUBMISSIONS, pool.map(run, SUBMISSIONS), strict=True))


def _categories(result: EvaluationResult) -> list[str]:
    return [d.category for d in result.diagnostics if d.severity == "error"]


def test_expert_passes_with_perf_baseline_and_json_result(results: dict[str, EvaluationResult]) -> None:
    r = results["expert"]
    assert r.verdict == "passed" and r.passed, r.reason
    assert r.compiled and r.schema_version == SCHEMA_VERSION and r.stage == "done"
    assert r.failure_category == ""
    case = r.cases[0]
    assert case.passed and len(case.trials) == 4 and case.trials[0]["listed"]
    assert r.perf["cycles"] > 0 and r.perf["pipes"]["MTE2"] > 0
    assert r.baseline["source"] == "expert" and r.speedup == pytest.approx(1.0)
    assert not r.suspicious and r.flags == ()
    payload = json.dumps(r.to_dict(), allow_nan=False)  # the worker payload must serialise, strictly
    assert EvaluationResult.from_dict(json.loads(payload)) == r


@pytest.mark.parametrize(("name", "category"), [
    ("sub", "numerical_mismatch"),
    ("half_tiles", "unwritten_output"),
    ("neg_inf", "nan_inf"),
    ("writes_input", "input_mutation"),
])
def test_wrong_answers(results: dict[str, EvaluationResult], name: str, category: str) -> None:
    r = results[name]
    assert r.verdict == "wrong_answer" and r.compiled, (r.reason, r.diagnostics)
    assert category in _categories(r)
    assert r.failure_category == category
    json.dumps(r.to_dict(), allow_nan=False)


def test_unwritten_output_is_reported_as_such(results: dict[str, EvaluationResult]) -> None:
    msg = results["half_tiles"].diagnostics[0].message
    assert "8192 of 16384 elements never written" in msg


@pytest.mark.parametrize(("name", "category", "line_text"), [
    ("syntax", "syntax", "op.Init(x, y, z)"),
    ("undeclared", "undeclared", "Addd("),
    ("api_mismatch", "api_mismatch", "DataCopy(xLocal"),
    ("dtype", "dtype_conversion", None),
    ("template", "template_deduction", "AllocTensor()"),
    ("include", "include_link", "kernel_operator_v2.h"),
    ("link", "include_link", None),
    ("signature", "tiling_host", None),
])
def test_compile_errors_are_classified_and_located(results: dict[str, EvaluationResult], name: str, category: str,
                                                   line_text: str | None) -> None:
    r = results[name]
    assert r.verdict == "compile_error" and not r.compiled
    first = r.diagnostics[0]
    assert first.category == category and r.failure_category == category, r.diagnostics
    if line_text is not None:
        assert first.file == "kernel.cpp"
        line = SUBMISSIONS[name]["kernel"].splitlines()[first.line - 1]
        assert line_text in line, (first, line)
    assert r.compile_log


@pytest.mark.parametrize(("name", "category", "code"), [
    ("ub_overflow", "ub_capacity", "UB_OVERFLOW"),
    ("queue_leak", "queue_sync", None),
    ("gm_oob", "gm_oob", "GM_OOB"),
    ("misaligned", "alignment", None),
    ("segfault", "crash", "CRASH"),
])
def test_emulator_findings_become_runtime_errors(results: dict[str, EvaluationResult], name: str, category: str,
                                                 code: str | None) -> None:
    r = results[name]
    assert r.verdict == "runtime_error" and r.compiled, (r.reason, r.diagnostics)
    first = next(d for d in r.diagnostics if d.severity == "error")
    assert first.category == category and first.source == "emulator", r.diagnostics
    assert r.failure_category == category
    if code:
        assert first.code == code
    if category != "crash":  # a crash before any AscendC call has no API call site to name
        assert first.file == "kernel.cpp" and first.line


def test_endless_loop_is_a_timeout(results: dict[str, EvaluationResult]) -> None:
    r = results["endless_loop"]
    assert r.verdict == "timeout" and "timeout" in _categories(r)
    # The case's 4 s wall limit, shared by the listed trial, 3 random ones and slack, gives each
    # launch the emulator's floor of 2 s (the task's default 30 s would give 6 s).
    assert any("after 2.0 s" in d.message for d in r.diagnostics), [d.message for d in r.diagnostics]


def test_host_tiling_failure_is_a_runtime_error_in_the_host(results: dict[str, EvaluationResult]) -> None:
    r = results["bad_block_dim"]
    assert r.verdict == "runtime_error"
    assert r.diagnostics[0].category == "tiling_host" and "SetBlockDim(0)" in r.diagnostics[0].message


def test_forbidden_api_is_refused_before_compiling(results: dict[str, EvaluationResult]) -> None:
    r = results["fopen_static"]
    assert r.verdict == "sandbox_violation" and not r.compiled and r.stage == "static_check"
    d = r.diagnostics[0]
    assert d.file == "kernel.cpp" and "fopen" in d.message
    assert "fopen" in SUBMISSIONS["fopen_static"]["kernel"].splitlines()[d.line - 1]


def test_socket_is_refused(results: dict[str, EvaluationResult]) -> None:
    """Since issue #30 device code is an allow-list: socket() does not link into a kernel at all
    (the sandbox's seccomp kill of a program that calls it is tests/bench_runner/test_sandbox.py's)."""
    r = results["socket"]
    assert r.verdict == "compile_error" and "device_code" in _categories(r), r.diagnostics


def test_include_of_a_host_file_does_not_leak(results: dict[str, EvaluationResult]) -> None:
    r = results["include_passwd"]
    assert r.verdict == "compile_error" and r.diagnostics[0].category == "include_link"
    assert "root:" not in json.dumps(r.to_dict())


def test_fork_bomb_is_contained(results: dict[str, EvaluationResult]) -> None:
    r = results["fork_bomb"]
    # Since issue #16 the host calls a fork bomb needs do not compile as device code at all.
    assert r.verdict in ("timeout", "runtime_error") or (r.verdict == "compile_error"
                                                         and "device_code" in _categories(r)), r.diagnostics


def test_printing_gigabytes_is_an_output_limit(results: dict[str, EvaluationResult]) -> None:
    r = results["flood"]
    assert r.verdict == "runtime_error" and "resource_limit" in _categories(r)


def test_allocating_all_memory_is_a_memory_limit(results: dict[str, EvaluationResult]) -> None:
    r = results["eat_memory"]
    # Since issue #16 heap allocation in device code is a compile error (device_code).
    assert (r.verdict == "runtime_error" and "resource_limit" in _categories(r)) or (
        r.verdict == "compile_error" and "device_code" in _categories(r)), r.diagnostics


def test_writing_outside_is_neutralised(results: dict[str, EvaluationResult]) -> None:
    assert not Path("/usr/akgen-escape").exists()
    r = results["write_outside"]
    # Since issue #16 the libc file calls do not compile as device code (device_code).
    assert r.verdict == "passed" or (r.verdict == "compile_error" and "device_code" in _categories(r)), r.diagnostics


def test_identical_submission_is_answered_from_the_cache(results: dict[str, EvaluationResult], cache_dir: Path,
                                                         tmp_path: Path) -> None:
    first = results["sub"]
    again = evaluate(ADD, SUBMISSIONS["sub"]["kernel"], cache_dir=cache_dir, baseline=False)
    assert again.cache["hit"] and again.verdict == "wrong_answer"
    assert again.seeds == first.seeds
    # The stored record reads back whole: the same result, answered from the cache.
    assert again == first.with_cache(True, first.cache["key"])
    fresh = evaluate(ADD, SUBMISSIONS["sub"]["kernel"], cache_dir=tmp_path, baseline=False)
    assert not fresh.cache["hit"]
    assert fresh.seeds["master"] != first.seeds["master"]


def test_seed_replays_the_same_trials_and_skips_the_cache(results: dict[str, EvaluationResult],
                                                          cache_dir: Path) -> None:
    first = results["sub"]
    replay = evaluate(ADD, SUBMISSIONS["sub"]["kernel"], seed=first.seeds["master"], baseline=False,
                      cache_dir=cache_dir)
    assert not replay.cache["hit"]
    assert replay.seeds == first.seeds
    assert first.seeds["trials"]["n16384"][1] == trial_seed(first.seeds["master"], "n16384", 0)


def test_a_case_no_source_could_carry_runs_its_listed_trial_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cases over HUGE_CASE_ELEMENTS (inputs and outputs) run their listed trial alone
    (NPUKernelBench's 2^28-element cases cost gigabytes per trial); others keep them all."""
    from bench_runner import evaluate as evaluate_mod

    elements = 3 * 16384  # x, y and z of the n16384 case
    runs = {}
    for threshold in (elements - 1, elements):
        monkeypatch.setattr(evaluate_mod, "HUGE_CASE_ELEMENTS", threshold)
        result = evaluate(ADD, ADD.expert_kernel.read_text(), use_cache=False, baseline=False)
        assert result.passed, result.reason
        runs[threshold] = len(result.seeds["trials"]["n16384"])
    assert runs == {elements - 1: 1, elements: 1 + evaluate_mod.MIN_RANDOM_TRIALS}


def test_unusable_input_raises() -> None:
    with pytest.raises(UnknownTaskError):
        evaluate("no_such_task", "x")
    with pytest.raises(SubmissionError, match="does not offer"):
        evaluate(ADD, "x", path="host_device")
    with pytest.raises(SourceRejected, match="host source is missing") as missing:
        evaluate(RELU, "x", path="host_device")
    assert (missing.value.field, missing.value.code) == ("host", "missing_source")


def test_speedup_is_a_geometric_mean_and_over_10x_is_suspicious() -> None:
    from bench_runner.evaluate import _speedup

    perf = {"per_case": [{"name": "a", "cycles": 100, "est_us": 1.0}, {"name": "b", "cycles": 400, "est_us": 4.0}]}
    base = {"per_case": [{"name": "a", "cycles": 200, "est_us": 2.0}, {"name": "b", "cycles": 200, "est_us": 2.0}]}
    assert _speedup(perf, base) == (pytest.approx(1.0), [])
    fast = {"per_case": [{"name": "a", "cycles": 10, "est_us": 0.1}, {"name": "b", "cycles": 10, "est_us": 0.1}]}
    value, flags = _speedup(fast, base)
    assert value == pytest.approx(20.0) and flags == ["suspicious_speedup"]
    vendor = {"per_case": [{"name": "a", "cycles": None, "est_us": 3.0}, {"name": "b", "cycles": None, "est_us": 3.0}]}
    assert _speedup(perf, vendor)[0] == pytest.approx((3.0 / 1.0 * 3.0 / 4.0) ** 0.5)
    assert _speedup(perf, {"source": "expert", "error": "x"}) == (None, [])


def test_in_place_task_may_write_its_input(tmp_path: Path) -> None:
    """An output aliasing an input lives in the input's buffer; that input may change."""
    import shutil

    folder = tmp_path / "relu_inplace"
    shutil.copytree(RELU.root, folder)
    toml = (folder / "task.toml").read_text().replace('slug = "relu_fp32_dynamic"', 'slug = "relu_inplace"')
    toml = toml.replace('[[outputs]]\nname = "y"\ndtype = "float32"', '[[outputs]]\nname = "y"\nalias = "x"\ndtype = "float32"')
    (folder / "task.toml").write_text(toml)
    kernel = RELU.expert_kernel.read_text().replace("GM_ADDR x, GM_ADDR y, GM_ADDR tiling", "GM_ADDR x, GM_ADDR tiling")
    kernel = kernel.replace("op.Init(x, y, tilingData);", "op.Init(x, x, tilingData);")
    (folder / "expert" / "kernel.cpp").write_text(kernel)
    task = tasks.load_task(folder)
    assert task.kernel_args == ("x", "tiling")
    r = evaluate(task, kernel, use_cache=False, baseline=False)
    assert r.passed, (r.reason, r.diagnostics[:2])
    wrong = evaluate(task, kernel.replace("Relu(yLocal, xLocal", "Abs(yLocal, xLocal"), use_cache=False,
                     baseline=False)
    assert wrong.verdict == "wrong_answer"


def test_a_wrong_answer_names_the_inputs_at_the_failing_index(tmp_path):
    """What a person needs to act on a wrong answer: the case, seed, index, got, want and the
    input value(s) there (issue #22), in the headline and in the trial's record."""
    task = tasks.get_task("abs_fp16")
    wrong = task.expert_kernel.read_text().replace("Abs(", "Relu(", 1)  # negative inputs come out 0
    result = evaluate(task, wrong, cache_dir=tmp_path)
    assert result.verdict == "wrong_answer"
    failing = next(t for c in result.cases for t in c.trials if not t["passed"])
    check = next(c for c in failing["checks"] if not c["passed"])
    [(name, value)] = check["inputs_at"].items()
    assert name == "x" and value < 0 and check["want"] == -value and check["got"] == 0.0
    assert f"(inputs there: x={value!r})" in result.reason and f"seed {failing['seed']}" in result.reason


def test_an_output_the_task_does_not_judge_is_written_but_not_compared(tmp_path: Path) -> None:
    """An op's scratch output (NPUKernelBench's binding allocates RmsNorm's ``rstd`` and returns
    only ``y``): ``judged = false`` gives it a buffer and no verdict; a judged output is judged."""
    import shutil

    base = tasks.get_task("split_lastdim_fp32")
    folder = tmp_path / "split_scratch"
    shutil.copytree(base.root, folder)
    toml = (folder / "task.toml").read_text().replace('slug = "split_lastdim_fp32"', 'slug = "split_scratch"')
    toml = toml.replace('name = "y2"\ndtype = "float32"', 'name = "y2"\ndtype = "float32"\njudged = false')
    assert "judged = false" in toml
    (folder / "task.toml").write_text(toml)
    task = tasks.load_task(folder)
    assert [o.judged for o in task.outputs] == [True, False]
    kernel = base.expert_kernel.read_text()
    skips_y2 = kernel.replace("CopyRect(y2Gm, colsB_, colsA_, r, count);", "")
    assert skips_y2 != kernel
    assert evaluate(task, skips_y2, use_cache=False, baseline=False).verdict == "passed"
    skips_y1 = kernel.replace("CopyRect(y1Gm, colsA_, 0, r, count);", "")
    assert evaluate(task, skips_y1, use_cache=False, baseline=False).verdict == "wrong_answer"
    assert evaluate(base, skips_y2, use_cache=False, baseline=False).verdict == "wrong_answer"
    # the traffic floor counts only what is judged: a kernel may leave the scratch output unwritten
    from bench_runner.evaluate import _min_cycles

    case = task.cases[0]
    whole, judged = (_min_cycles(cpu_sim.CpuSim(), t, case, "Ascend910B2") for t in (base, task))
    sizes = [math.prod(reference.case_view(task, case).shapes[o.name]) for o in task.outputs]
    assert whole and judged and judged == pytest.approx(whole * sizes[0] / sum(sizes))
