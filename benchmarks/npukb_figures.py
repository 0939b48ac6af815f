"""The NPUKernelBench figures of an import, from its report: what docs/ascend_sim.md records.

    .venv/bin/akgen suite import-npukb ~/NPUKernelBench --out npukb-suite --eval
    .venv/bin/python benchmarks/npukb_figures.py npukb-suite/import-report.json [--markdown]

Why: issue #31 counts NPUKernelBench's tasks (157, by level) that import with no case dropped and
whose own answer passes every dtype combination and every case; a reader must be able to recount
those figures and see every task still failing with its reason. The report (written by the
import into the suite folder) holds each task's import, its dropped cases, and each combination's
and case's verdict; this script only counts and lists, so it never disagrees with the report.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


def task_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per NPUKernelBench task: imported whole, answer passing whole, and why not."""
    outcomes = {t["slug"]: t for t in (report.get("evaluation") or {}).get("tasks", [])}
    rows = []
    for t in report["tasks"]:
        combos = [outcomes[s] for s in t["slugs"] if s in outcomes]
        failing = [o for o in combos if not o["passed"]]
        whole = bool(t["slugs"]) and not t["dropped_cases"]
        reason = ""
        if t["skipped"]:
            reason = f"not imported: {t['skipped']}"
        elif failing:
            o = failing[0]
            reason = f"{o['slug']}: {o['blocker'] or o['verdict']}"
        elif t["dropped_cases"]:
            reason = f"{len(t['dropped_cases'])} case(s) dropped: {t['dropped_cases'][0]}"
        rows.append({"name": t["name"], "level": t["level"], "imported_whole": whole,
                     "imported": bool(t["slugs"]), "combinations": len(t["slugs"]),
                     "answer_passes": bool(combos) and not failing and len(combos) == len(t["slugs"]),
                     "passes_whole": whole and bool(combos) and not failing, "reason": reason})
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[int, Counter[str]]:
    by_level: dict[int, Counter[str]] = defaultdict(Counter)
    for r in rows:
        c = by_level[r["level"]]
        c["tasks"] += 1
        for key in ("imported", "imported_whole", "answer_passes", "passes_whole"):
            c[key] += bool(r[key])
    return dict(sorted(by_level.items()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", type=Path, help="the suite's import-report.json (an import with --eval)")
    ap.add_argument("--markdown", action="store_true", help="the failing tasks as a Markdown list")
    args = ap.parse_args(argv)
    report = json.loads(args.report.read_text(encoding="utf-8"))
    rows = task_rows(report)
    levels = summary(rows)
    checkout = report.get("checkout") or {}
    print(f"checkout {checkout.get('path')} at {checkout.get('commit')}; cases over "
          f"{report.get('max_case_elements', 'the default')} elements dropped")
    print("level  tasks  imported  imported whole  answer passes  passes whole (no case dropped)")
    total: Counter[str] = Counter()
    for level, c in levels.items():
        total.update(c)
        print(f"L{level}     {c['tasks']:5}  {c['imported']:8}  {c['imported_whole']:14}  {c['answer_passes']:13}  "
              f"{c['passes_whole']:12}")
    print(f"all    {total['tasks']:5}  {total['imported']:8}  {total['imported_whole']:14}  "
          f"{total['answer_passes']:13}  {total['passes_whole']:12}")
    score = (report.get("evaluation") or {}).get("npukb_score")
    if score:
        per = ", ".join(f"L{k} {v:.1f}" for k, v in score["levels"].items())
        print(f"NPUKernelBench score of its own answers: {score['total']:.1f} ({per})")
    positional = [(t["name"], c) for t in report["tasks"] for c in t.get("positional_cases", [])]
    if positional:
        name, first = positional[0]
        print(f"cases routed by position where the binding could not route them: {len(positional)} in "
              f"{len({n for n, _ in positional})} task(s), e.g. {name} {first[:160]}")
    failing = [r for r in rows if r["reason"]]
    if args.markdown:
        print()
        for r in failing:
            print(f"- L{r['level']} `{r['name']}`: {r['reason'][:200]}")
    else:
        kinds = Counter(r["reason"].split(":")[0] if r["reason"].startswith("not imported") else
                        (r["reason"].split(": ", 2)[1] if ": " in r["reason"] else r["reason"]) for r in failing)
        for kind, n in kinds.most_common(20):
            print(f"  {n:3} x {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
