"""Every task of the shipped suite meets the quality bar: it loads, its expert kernel passes every
case on cpu-sim, and neither its deliberate mutant nor a kernel that does nothing can pass.

Evaluations run two at a time (the machine has two cores) and skip the speedup baseline: this
test is about verdicts, and `akgen suite validate` covers both paths and the templates. The
kernel that does nothing is judged only where it could pass (a task's own precision `check`, an
output written in place over an input): elsewhere the evaluator's rule fails every unwritten,
poisoned element whatever the task (tests/bench_runner/test_contracts.py: an unmodified template
is a wrong answer).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

from bench_runner import reference
from bench_runner.evaluate import evaluate
from bench_runner.tasks import Task, load_suite
from tests.bench_runner.suites import expert_refs

pytestmark = pytest.mark.slow

SUITE = load_suite()
# Derived static variants share their folder's expert and run one of its cases: judging them again
# would add minutes and no signal (tests/bench_runner/suites/test_static_variants.py covers them).
TASKS = {task.slug: task for task in SUITE.tasks if task.variant_of is None}
WORKERS = int(os.environ.get("AKGEN_SUITE_TEST_WORKERS", "2"))


def _path(task: Task) -> str:
    return "device_only" if "device_only" in task.paths else "host_device"


def _noop_kernel(task: Task) -> str:
    params = ", ".join(f"GM_ADDR {name}" for name in task.kernel_args)
    return (
        '#include "kernel_operator.h"\n'
        f'extern "C" __global__ __aicore__ void {task.entry}({params}) {{}}\n'
    )


def _noop_could_pass(task: Task) -> bool:
    """Whether nothing-at-all needs judging: the task's own precision rule decides, or an output
    is written in place over an input (no poison there: the input's values stay)."""
    return reference.has_check(task) or any(t.alias is not None for t in task.outputs)


def _mutant(task: Task) -> str | None:
    spec = task.extra.get("mutant")
    if not spec:
        return None
    source = task.expert_kernel.read_text()
    assert spec["find"] in source, f"{task.slug}: mutant 'find' text is not in expert/kernel.cpp"
    return source.replace(spec["find"], spec["replace"], 1)


def _host(task: Task) -> str | None:
    if _path(task) == "device_only":
        return None
    return task.expert_host.read_text() if task.expert_host else None


@cache
def _verdicts(cache_dir: str) -> dict[str, dict[str, str]]:
    """Run expert, mutant and no-op of every task once; tests below read the outcome."""
    jobs = []
    for task in TASKS.values():
        jobs.append((task, "expert", task.expert_kernel.read_text()))
        if _noop_could_pass(task):
            jobs.append((task, "noop", _noop_kernel(task)))
        mutant = _mutant(task)
        if mutant is not None:
            jobs.append((task, "mutant", mutant))

    def run(job):
        task, kind, source = job
        # The expert replays fixed trials so its figures can be compared with the stored ones.
        result = evaluate(task, source, _host(task), path=_path(task), cache_dir=cache_dir, baseline=False,
                          seed=expert_refs.SEED if kind == "expert" else None)
        detail = str(result.verdict)
        if not result.passed:
            diags = "; ".join(d.message[:160] for d in result.diagnostics[:3])
            detail += f" ({diags})"
        return task.slug, kind, str(result.verdict), detail, expert_refs.facts(result) if kind == "expert" else None

    out: dict[str, dict] = {}
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for slug, kind, verdict, detail, facts in pool.map(run, jobs):
            out.setdefault(slug, {})[kind] = verdict
            out[slug][kind + "_detail"] = detail
            if facts is not None:
                out[slug]["expert_facts"] = facts
    return out


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> dict[str, dict[str, str]]:
    return _verdicts(str(tmp_path_factory.mktemp("suite-cache")))


def test_every_task_folder_loads():
    assert not SUITE.errors, "\n".join(str(e) for e in SUITE.errors)
    assert TASKS, "the suite is empty"


@pytest.mark.parametrize("slug", sorted(TASKS))
def test_expert_passes_and_wrong_kernels_fail(slug, verdicts):
    outcome = verdicts[slug]
    assert outcome["expert"] == "passed", f"expert: {outcome['expert_detail']}"
    assert outcome.get("noop") != "passed", "a kernel that writes nothing passed"
    if "mutant" in outcome:
        assert outcome["mutant"] != "passed", "the deliberate mutant passed"


@pytest.mark.parametrize("slug", sorted(TASKS))
def test_expert_results_match_the_stored_references(slug, verdicts):
    """Modelled cycles per case are exactly as stored, errors within a share of the tolerance
    (tests/bench_runner/suites/expert_refs.py says how to regenerate them on purpose)."""
    stored = expert_refs.load().get(slug)
    assert stored is not None, f"no stored result for {slug}: regenerate expert_results.json"
    problems = expert_refs.differences(TASKS[slug], verdicts[slug]["expert_facts"], stored)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("slug", sorted(TASKS))
def test_task_declares_a_mutant_and_its_origin(slug):
    task = TASKS[slug]
    assert "mutant" in task.extra, "task.toml needs [extra] mutant = {find, replace}"
    assert "npukb" in task.extra, "task.toml needs [extra] npukb = <the NPUKernelBench task>"
    assert Path(task.root / "api_desc.md").read_text().strip()


def test_docs_suite_table_is_current():
    from bench_runner.suite_doc import suite_markdown

    doc = Path(__file__).resolve().parents[3] / "docs" / "suite.md"
    assert doc.read_text() == suite_markdown(SUITE.tasks), (
        "docs/suite.md is stale: run `akgen suite list --markdown > docs/suite.md`"
    )
