"""bench_runner/reference.py: a task's own Python (golden, make_inputs, check) failing is the
task's fault, reported as such, and never takes the evaluator (or a whole suite's run) down."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from bench_runner import reference, suite_eval, tasks
from bench_runner.errors import TaskFormatError
from tests.bench_runner.conftest import write_task

RAISES = ("def golden(inputs, attrs):\n"
          "    if inputs['x'].size > 500:\n"
          "        raise RuntimeError('expected dtype Half for weight')\n"
          "    return {'z': inputs['x'] + inputs['y']}\n")


def test_a_golden_that_raises_is_a_task_format_error_naming_it(suite: Path) -> None:
    task = tasks.load_task(write_task(suite, files={"reference.py": RAISES}))
    small, big = task.cases
    inputs = reference.make_inputs(task, small, 1)
    assert set(reference.golden(task, small, inputs)) == {"z"}
    with pytest.raises(TaskFormatError) as info:
        reference.golden(task, big, reference.make_inputs(task, big, 1))
    assert info.value.field == "golden" and "RuntimeError: expected dtype Half for weight" in str(info.value)


def test_a_check_gets_every_output_as_float64_and_its_verdict_is_typed(suite: Path) -> None:
    check = ("def check(expected, got, attrs, case):\n"
             "    import numpy as np\n"
             "    assert expected['z'].dtype == np.float64 and got['z'].dtype == np.float64\n"
             "    return bool(np.allclose(expected['z'], got['z'], atol=0.5)), case.name\n")
    task = tasks.load_task(write_task(suite, files={"reference.py": RAISES + check}))
    case = task.cases[0]
    want = reference.golden(task, case, reference.make_inputs(task, case, 1))
    assert reference.has_check(task)
    assert reference.check(task, case, want, want) == reference.CheckVerdict(True, case.name)
    off = {"z": (want["z"].astype(np.float64) + 1.0).astype(want["z"].dtype)}
    assert not reference.check(task, case, want, off).passed


def test_a_suite_run_survives_a_task_whose_reference_fails(suite: Path) -> None:
    """The shipped abs_fp16 with a golden that raises on the second case: the expert compiles,
    the golden fails, and the outcome says so instead of ending judge_experts."""
    shutil.copytree(tasks.get_task("abs_fp16").root, suite / "abs_fp16")
    ref = suite / "abs_fp16" / "reference.py"
    ref.write_text(ref.read_text().replace(
        'def golden(inputs, attrs):\n', 'def golden(inputs, attrs):\n'
        '    if inputs["x"].size > 1000:\n        raise RuntimeError("expected dtype Half for weight")\n'),
        encoding="utf-8")
    assert "expected dtype Half" in ref.read_text()
    (outcome,) = suite_eval.judge_experts(["abs_fp16"], suite, workers=1)
    assert outcome.verdict == suite_eval.NOT_EVALUATED and "expected dtype Half" in outcome.reason, outcome
    assert set(outcome.cases) == {c.name for c in tasks.get_task("abs_fp16", suite).cases}


def test_a_suite_run_survives_a_task_that_kills_its_evaluator(suite: Path) -> None:
    """A worker the kernel's OOM killer ends (here: a golden that SIGKILLs its own process, as
    the killer would on a case too large for the machine) breaks the process pool; the run goes
    on, the other task is judged, and the task that died alone is reported so."""
    for slug in ("abs_fp16", "relu_fp32_dynamic"):
        shutil.copytree(tasks.get_task(slug).root, suite / slug)
    ref = suite / "abs_fp16" / "reference.py"
    ref.write_text(ref.read_text().replace(
        'def golden(inputs, attrs):\n', 'def golden(inputs, attrs):\n'
        '    import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)\n'), encoding="utf-8")
    assert "SIGKILL" in ref.read_text()
    seen: list[str] = []
    killed, fine = suite_eval.judge_experts(["abs_fp16", "relu_fp32_dynamic"], suite, workers=2,
                                            on_done=lambda o: seen.append(o.slug))
    assert killed.verdict == suite_eval.NOT_EVALUATED and "died" in killed.reason, killed
    assert killed.cases and not any(killed.cases.values())
    assert fine.verdict == "passed", fine
    assert sorted(seen) == ["abs_fp16", "relu_fp32_dynamic"]
