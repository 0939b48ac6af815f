"""Stored results of every expert kernel of the shipped suite, per case: the modelled cycles and
the largest absolute error against the reference.

Changes to how the emulator computes (faster cube loops, a leaner harness) must leave what it
computes alone: tests/bench_runner/suites/test_npukb_quality.py compares each expert's fresh
result with these. When a change is meant to move a figure (a cost-model correction, a new
case), regenerate the file and say why in the commit:

    .venv/bin/python -m tests.bench_runner.suites.expert_refs [slug ...]

With slugs, only those tasks are run again and the others keep their stored figures; what moved
in cases that were stored before is printed, so a regeneration for new cases shows it left the
old ones alone.
"""

from __future__ import annotations

import json
import math
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from bench_runner.contracts import EvaluationResult, number
from bench_runner.tasks import Task

REFS = Path(__file__).with_name("expert_results.json")
#: A case's error may move by its tightest absolute tolerance or by the stored error itself,
#: whichever is larger: accumulation order moves it (a faster loop; atomic adds from cores that
#: run on threads, in whatever order they arrive, as on the NPU). Cycles may not move at all.
ERROR_SLACK = 1.0
#: The master seed of the experts' trials, so the stored figures are reproducible.
SEED = 20261202


def facts(result: EvaluationResult) -> dict[str, dict[str, Any]]:
    """What is stored per case: modelled cycles (None where the case had no report) and error."""
    out = {}
    for case in result.cases:
        err = number(case.max_abs_err) if case.max_abs_err is not None else None
        out[case.name] = {"cycles": (case.perf or {}).get("cycles"),
                          "max_abs_err": None if err is None or not math.isfinite(err) else float(err)}
    return out


def load() -> dict[str, dict[str, dict[str, Any]]]:
    return json.loads(REFS.read_text()) if REFS.exists() else {}


def differences(task: Task, fresh: dict[str, dict[str, Any]], stored: dict[str, dict[str, Any]]) -> list[str]:
    """Why ``fresh`` does not match ``stored`` (empty when it does)."""
    problems = []
    if set(fresh) != set(stored):
        problems.append(f"cases {sorted(fresh)} != stored {sorted(stored)}")
    atol = min((t.atol for t in task.tolerances.values()), default=0.0)
    for name in sorted(set(fresh) & set(stored)):
        now, then = fresh[name], stored[name]
        if now["cycles"] != then["cycles"]:
            problems.append(f"{name}: cycles {now['cycles']} != stored {then['cycles']}")
        a, b = now["max_abs_err"], then["max_abs_err"]
        slack = max(ERROR_SLACK * atol, b or 0.0) + 1e-12
        if (a is None) != (b is None) or (a is not None and abs(a - b) > slack):
            problems.append(f"{name}: max_abs_err {a} != stored {b} (slack {slack:g})")
    return problems


def main(argv: list[str] | None = None) -> int:
    from bench_runner.evaluate import evaluate
    from tests.bench_runner.suites.test_npukb_quality import TASKS, _host, _path

    slugs = sys.argv[1:] if argv is None else argv
    unknown = sorted(set(slugs) - set(TASKS))
    if unknown:
        print(f"unknown task(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    chosen = [TASKS[s] for s in slugs] if slugs else list(TASKS.values())
    stored = load()

    with TemporaryDirectory() as cache_dir:
        def run(task: Task) -> tuple[str, dict]:
            result = evaluate(task, task.expert_kernel.read_text(), _host(task), path=_path(task),
                              cache_dir=cache_dir, baseline=False, seed=SEED)
            if not result.passed:
                print(f"{task.slug}: expert did not pass ({result.verdict}); not stored", file=sys.stderr)
                return task.slug, {}
            return task.slug, facts(result)

        with ThreadPoolExecutor(max_workers=2) as pool:
            fresh = {slug: f for slug, f in pool.map(run, chosen) if f}
    for slug, figures in sorted(fresh.items()):
        before = {name: v for name, v in stored.get(slug, {}).items() if name in figures}
        now = {name: v for name, v in figures.items() if name in before}
        for problem in differences(TASKS[slug], now, before):
            print(f"{slug}: {problem}")
    refs = {**stored, **fresh} if slugs else fresh
    REFS.write_text(json.dumps(refs, indent=1, sort_keys=True) + "\n")
    print(f"wrote {REFS} ({len(refs)} tasks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
