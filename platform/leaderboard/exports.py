"""CSV and JSON of every board, built from the same selectors as the pages."""

from __future__ import annotations

import csv
import io
from typing import Any

from leaderboard import metrics, selectors
from leaderboard.metrics import Cell


def _v(value: Any) -> Any:
    if isinstance(value, Cell):
        return "" if value.value is None else round(value.value, 6)
    if isinstance(value, float):
        return round(value, 6)
    return "" if value is None else value


#: What a models row says about its coverage (leaderboard.coverage): a partial run has no rank.
COVERAGE_COLUMNS = ("complete", "tasks_in_scope", "tasks_covered", "samples_per_task")


def models_table(filters: selectors.Filters) -> tuple[list[str], list[list[Any]], list[dict]]:
    """The model board as the page orders it by exec@1: ranked runs, then partial ones unranked."""
    rows = selectors.sort_rows(selectors.model_leaderboard(filters), "exec@1")
    metric_cols = [f"{kind}@{k}" for kind in ("compile", "exec") for k in metrics.KS] + [
        "mean_speedup", "geomean_speedup", "fast_1", "fast_1.5", "tasks", "solved", "samples", "unjudged"]
    header = ["rank", "run", "run_name", "model", "training_stage", "baseline", *COVERAGE_COLUMNS, *metric_cols]
    for kind in ("compile", "exec"):
        for k in metrics.KS:
            header += [f"{kind}@{k}_ci_low", f"{kind}@{k}_ci_high"]
    for level in (1, 2, 3):
        header += [f"L{level}_compile@1", f"L{level}_exec@1"]
    table = []
    for row in rows:
        line = [_v(row.rank), row.run_id or "", row.run_name, row.model_name, row.training_stage, row.baseline]
        cov = row.coverage
        line += [row.complete, *((cov.tasks_in_scope, cov.tasks_covered, cov.samples_per_task) if cov else ("",) * 3)]
        line += [_v(row.metrics.get(c)) for c in metric_cols]
        for kind in ("compile", "exec"):
            for k in metrics.KS:
                cell = row.metrics.get(f"{kind}@{k}")
                line += [_v(cell.low) if cell else "", _v(cell.high) if cell else ""]
        for level in (1, 2, 3):
            cells = row.by_level.get(level, {})
            line += [_v(cells.get("compile@1")), _v(cells.get("exec@1"))]
        table.append(line)
    return header, table, [r.as_dict() for r in rows]


def people_table() -> tuple[list[str], list[list[Any]], list[dict]]:
    rows = selectors.people_leaderboard(limit=10_000)
    header = ["rank", "user", "solved", "L1", "L2", "L3", "score", "best_speedup"]
    table = [[r.rank, r.username, r.solved, r.by_level.get(1, 0), r.by_level.get(2, 0), r.by_level.get(3, 0),
              r.score, _v(r.best_speedup)] for r in rows]
    return header, table, [dict(zip(header, line, strict=True)) for line in table]


def taxonomy_table(run_id: int | None = None, model_id: int | None = None) -> tuple[list[str], list[list[Any]], list[dict]]:
    counts = selectors.taxonomy_counts(run_id=run_id, model_id=model_id)
    total = sum(n for _, n in counts) or 1
    header = ["category", "failures", "share"]
    table = [[c, n, round(n / total, 6)] for c, n in counts]
    return header, table, [dict(zip(header, line, strict=True)) for line in table]


def heatmap_table(filters: selectors.Filters) -> tuple[list[str], list[list[Any]], list[dict]]:
    hm = selectors.heatmap(filters, max_runs=10_000)
    header = ["run", "task", "level", "exec_pass@1"]
    table = []
    for (ri, ti), value in sorted(hm.cells.items()):
        table.append([hm.runs[ri][1], hm.tasks[ti][1], hm.tasks[ti][2], round(value, 6)])
    return header, table, [dict(zip(header, line, strict=True)) for line in table]


def to_csv(header: list[str], table: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for line in table:
        # A cell starting with = + - @ is a formula to spreadsheets: quote it as text.
        writer.writerow([f"'{v}" if isinstance(v, str) and v[:1] in ("=", "+", "-", "@") else v for v in line])
    return out.getvalue()
