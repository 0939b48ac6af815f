"""Read side of the leaderboards: every page, API endpoint and export asks these functions.

They read the aggregates (RunTaskStat, FailureCount, RankedKernel), never scan evaluations, and
put the numbers through leaderboard.metrics, so the pages, the API and the CSV agree by
construction.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, Max, QuerySet, Sum

from leaderboard import coverage, metrics
from leaderboard.coverage import Coverage, Scope
from leaderboard.metrics import Cell, TaskTally
from leaderboard.models import FailureCount, Quarantine, RankedKernel, RunTaskStat
from leaderboard.task_stats import VOUCHED, best_kernels
from submissions.models import EvalStatus, Evaluation, Run
from submissions.selectors import is_visible_to, visibility_q
from tasks import splits
from tasks.models import Task
from tasks.suites import DEFAULT_SUITE, valid_name

DEFAULT_TOOLCHAIN = "cpu-sim"
#: Columns of the model leaderboard that can be sorted, with their label.
COLUMNS: dict[str, str] = {
    "compile@1": "Compile pass@1", "compile@5": "Compile pass@5", "compile@10": "Compile pass@10",
    "exec@1": "Exec pass@1", "exec@5": "Exec pass@5", "exec@10": "Exec pass@10",
    "mean_speedup": "Mean speedup", "geomean_speedup": "Geo-mean speedup",
    "fast_1": "fast₁", "fast_1.5": "fast₁.₅", "tasks": "Tasks",
}


#: What toolchain/soc/category filters may hold (the API schema states the same pattern).
TEXT_FILTER_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"
_TEXT_FILTER = re.compile(TEXT_FILTER_PATTERN)


class BadFilter(ValueError):
    """A filter value that names nothing (shown to the user as it is)."""


@dataclass(frozen=True)
class Filters:
    level: int | None = None
    shape_mode: str | None = None
    path: str | None = None
    toolchain: str = DEFAULT_TOOLCHAIN
    soc: str | None = None
    category: str | None = None
    #: One suite per board (tasks/suites.py): pass rates over akgen's tasks and an imported
    #: suite's are not one number.
    suite: str = DEFAULT_SUITE
    #: Benchmark mode: ``eval`` scores only the held-out evaluation tasks (tasks.splits),
    #: ``train`` only the others; None all tasks.
    split: str | None = None

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Filters:
        """Read filters from a query string; raises BadFilter with the offending field."""
        level = query.get("level") or None
        if level is not None:
            if level not in ("1", "2", "3"):
                raise BadFilter(f"level must be 1, 2 or 3, not {level!r}")
            level = int(level)
        shape_mode = query.get("shape_mode") or None
        if shape_mode not in (None, "static", "dynamic"):
            raise BadFilter(f"shape_mode must be static or dynamic, not {shape_mode!r}")
        path = query.get("path") or None
        if path not in (None, "device_only", "host_device"):
            raise BadFilter(f"path must be device_only or host_device, not {path!r}")
        split = query.get("split") or None
        if split not in (None, "eval", "train"):
            raise BadFilter(f"split must be eval (the benchmark's evaluation tasks) or train, not {split!r}")
        text = {k: query.get(k) or None for k in ("toolchain", "soc", "category", "suite")}
        for key, value in text.items():
            if value is not None and (len(value) > 60 or not _TEXT_FILTER.fullmatch(value)):
                raise BadFilter(f"{key} must be at most 60 characters without control characters")
        if text["suite"] is not None and not valid_name(text["suite"]):
            raise BadFilter(f"suite must be a suite name (lower-case letters, digits, _ -), not {text['suite']!r}")
        return cls(level=level, shape_mode=shape_mode, path=path, toolchain=text["toolchain"] or DEFAULT_TOOLCHAIN,
                   soc=text["soc"], category=text["category"], suite=text["suite"] or DEFAULT_SUITE, split=split)

    def as_query(self) -> dict[str, str]:
        return {k: str(v) for k, v in asdict(self).items() if v is not None}

    def key(self) -> str:
        items = sorted(self.as_query().items())
        if self.split:  # a new evaluation list is a new board
            items.append(("held_out", ",".join(sorted(splits.eval_slugs()))))
        return hashlib.sha256(repr(items).encode()).hexdigest()[:16]


def _in_split(tasks: QuerySet, split: str | None, field: str = "slug") -> QuerySet:
    if split is None:
        return tasks
    held_out = {f"{field}__in": splits.eval_slugs()}
    return tasks.filter(**held_out) if split == "eval" else tasks.exclude(**held_out)


def _scope_tasks(filters: Filters) -> QuerySet:
    """The tasks a board scores, before the path: suite, split, level, shape and category."""
    tasks = _in_split(Task.objects.filter(retired=False, suite=filters.suite), filters.split)
    if filters.level:
        tasks = tasks.filter(level=filters.level)
    if filters.shape_mode:
        tasks = tasks.filter(shape_mode=filters.shape_mode)
    if filters.category:
        tasks = tasks.filter(category=filters.category)
    return tasks


def board_scope(filters: Filters) -> Scope:
    """The tasks a run must judge to be ranked on this board (leaderboard.coverage): those of the
    filters that offer the board's path, if it names one (no run can judge a path a task does
    not offer). One query of ids; paths are checked here because SQLite has no JSON contains."""
    rows = _scope_tasks(filters).values_list("pk", "paths")
    ids = frozenset(pk for pk, paths in rows if not filters.path or not paths or filters.path in paths)
    return Scope(task_ids=ids, held_out=filters.split == "eval")


def _stat_rows(filters: Filters, run_ids: list[int] | None = None) -> QuerySet:
    rows = RunTaskStat.objects.filter(toolchain=filters.toolchain, task__retired=False, task__suite=filters.suite)
    rows = _in_split(rows, filters.split, "task__slug")
    if filters.soc:
        rows = rows.filter(soc=filters.soc)
    if filters.path:
        rows = rows.filter(path=filters.path)
    if filters.level:
        rows = rows.filter(task__level=filters.level)
    if filters.shape_mode:
        rows = rows.filter(task__shape_mode=filters.shape_mode)
    if filters.category:
        rows = rows.filter(task__category=filters.category)
    if run_ids is not None:
        rows = rows.filter(run_id__in=run_ids)
    return rows


def tallies_by_run(filters: Filters, run_ids: list[int] | None = None) -> dict[int, list[TaskTally]]:
    """Per run, one TaskTally per task (rows of several paths/SoCs of a task are added up)."""
    acc: dict[tuple[int, int], dict[str, Any]] = {}
    fields = ("run_id", "task_id", "task__level", "n", "n_compiled", "n_passed", "best_speedup",
              "speedup_count", "speedup_sum", "speedup_log_sum", "n_unjudged")
    for row in _stat_rows(filters, run_ids).values_list(*fields):
        run_id, task_id, level, n, comp, passed, best, sc, ss, sls, unjudged = row
        cur = acc.get((run_id, task_id))
        if cur is None:
            acc[(run_id, task_id)] = {"level": level, "n": n, "comp": comp, "passed": passed, "best": best,
                                      "sc": sc, "ss": ss, "sls": sls, "unjudged": unjudged}
            continue
        cur["unjudged"] += unjudged
        cur["n"] += n
        cur["comp"] += comp
        cur["passed"] += passed
        cur["best"] = max(x for x in (cur["best"], best) if x is not None) if (cur["best"] or best) else None
        cur["sc"] += sc
        cur["ss"] += ss
        cur["sls"] += sls
    out: dict[int, list[TaskTally]] = defaultdict(list)
    for (run_id, task_id), v in sorted(acc.items()):
        out[run_id].append(TaskTally(task_id, v["level"], v["n"], v["comp"], v["passed"], v["best"], v["sc"],
                                     v["ss"], v["sls"], v["unjudged"]))
    return out


@dataclass
class BoardRow:
    run_id: int
    run_name: str
    model_name: str
    model_id: int
    training_stage: str
    base_model: str
    samples_per_task: int
    decoding: dict
    metrics: dict[str, Any]
    by_level: dict[int, dict[str, Cell]] = field(default_factory=dict)
    baseline: bool = False
    rank: int | None = None
    #: How much of the board's scope the run judged (leaderboard.coverage); None only for rows
    #: built before coverage existed, which count as partial.
    coverage: Coverage | None = None

    def value(self, column: str) -> float | None:
        v = self.metrics.get(column)
        return v.value if isinstance(v, Cell) else v

    @property
    def unjudged(self) -> int:
        return int(self.metrics.get("unjudged") or 0)

    @property
    def complete(self) -> bool:
        """The run judged every task of the board's scope with its k samples and has nothing
        unjudged (leaderboard.coverage): only such runs are ranked; the others are partial."""
        return self.baseline or (self.coverage is not None and self.coverage.complete)

    @property
    def partial(self) -> bool:
        """Judged fewer tasks × samples than the board scores (shown as "partial · 4 / 245 tasks");
        a run short only because of unjudged samples is "incomplete" instead."""
        return not self.baseline and (self.coverage is None or self.coverage.partial)

    def as_dict(self) -> dict[str, Any]:
        def plain(v):
            return v.as_dict() if isinstance(v, Cell) else v

        return {
            "run": self.run_id, "run_name": self.run_name, "model": self.model_name,
            "training_stage": self.training_stage, "base_model": self.base_model,
            "samples_per_task": self.samples_per_task, "decoding": self.decoding, "baseline": self.baseline,
            "rank": self.rank, "complete": self.complete, "unjudged": self.unjudged,
            "coverage": self.coverage.as_dict() if self.coverage else None,
            "metrics": {k: plain(v) for k, v in self.metrics.items()},
            "by_level": {f"L{lvl}": {k: plain(v) for k, v in cells.items()} for lvl, cells in self.by_level.items()},
        }


def _baseline_row(filters: Filters, scope: Scope) -> BoardRow:
    """The expert kernels: correct on every task of the board's scope, speedup 1 by definition."""
    levels = list(Task.objects.filter(pk__in=scope.task_ids).values_list("level", flat=True))
    tallies = [TaskTally(i, lvl, 1, 1, 1, 1.0, 1, 1.0, 0.0) for i, lvl in enumerate(levels)]
    summary = metrics.summarize(tallies, ks=(1,), intervals=False)
    for k in metrics.KS[1:]:
        summary[f"compile@{k}"] = summary[f"exec@{k}"] = Cell(1.0 if tallies else None, tasks=len(tallies))
    by_level = {lvl: {"compile@1": Cell(1.0), "exec@1": Cell(1.0)} for lvl in sorted(set(levels))}
    n = len(levels)
    whole = Coverage(tasks_in_scope=n, tasks_covered=n, tasks_attempted=n, samples_per_task=1, samples_judged=n,
                     samples_expected=n, held_out=scope.held_out)
    return BoardRow(0, "expert kernels", "Baseline", 0, "expert", "", 1, {}, summary, by_level, baseline=True,
                    coverage=whole)


def _run_versions(filters: Filters) -> dict[int, str]:
    """Per run, a token that changes whenever any of its aggregate rows under `filters` changes."""
    rows = (_stat_rows(filters).values("run_id")
            .annotate(t=Max("updated_at"), rows=Count("pk"), samples=Sum("n")).order_by())
    return {r["run_id"]: f"{r['t'].timestamp() if r['t'] else 0}:{r['rows']}:{r['samples']}" for r in rows}


def _board_row(run: Run, tallies: list[TaskTally], scope: Scope) -> BoardRow:
    summary = metrics.summarize(tallies)
    by_level = {}
    for level in (1, 2, 3):
        subset = [t for t in tallies if t.level == level]
        if subset:
            part = metrics.summarize(subset, ks=(1,), intervals=True)
            by_level[level] = {"compile@1": part["compile@1"], "exec@1": part["exec@1"]}
    return BoardRow(run.pk, run.name, run.model.name, run.model_id, run.model.get_training_stage_display(),
                    run.model.base_model, run.samples_per_task, run.decoding or {}, summary, by_level,
                    coverage=coverage.measure(tallies, scope, samples_per_task=run.samples_per_task))


def model_leaderboard(filters: Filters) -> list[BoardRow]:
    """One row per run with judged samples under `filters`, plus the expert baseline row; unsorted.

    Rows are cached per run under a token of that run's aggregates: when an evaluation finishes
    only its run is recomputed (the bootstrap makes a row cost milliseconds; 50 of them would
    not fit a page budget). The key holds the scope's fingerprint too: a task synced in or
    retired changes every run's coverage without touching its aggregates.
    """
    scope = board_scope(filters)
    versions = _run_versions(filters)
    keys = {run_id: f"lb:run:{run_id}:{filters.key()}:{scope.fingerprint()}:{token}"
            for run_id, token in versions.items()}
    cached = cache.get_many(list(keys.values()))
    rows = [cached[key] for key in keys.values() if key in cached]
    missing = [run_id for run_id, key in keys.items() if key not in cached]
    if missing:
        by_run = tallies_by_run(filters, missing)
        fresh = {}
        for run in Run.objects.filter(pk__in=missing).select_related("model"):
            if by_run.get(run.pk):
                row = _board_row(run, by_run[run.pk], scope)
                rows.append(row)
                fresh[keys[run.pk]] = row
        cache.set_many(fresh, timeout=3600)
    rows.append(_baseline_row(filters, scope))
    return rows


def sort_rows(rows: list[BoardRow], column: str, descending: bool = True) -> list[BoardRow]:
    """Baselines first (marked, never ranked), then complete runs by a column (runs without a
    value last whichever the direction), then partial runs (leaderboard.coverage: fewer tasks ×
    samples than the board's scope, or unjudged samples), in the same order but without a rank:
    their numbers stand on other tasks than the ranked runs'. Sets each rank. The pages, the API
    and the exports all order rows here."""
    if column not in COLUMNS:
        column = "exec@1"

    def ordered(runs: list[BoardRow]) -> list[BoardRow]:
        def counts(r: BoardRow) -> bool:
            if not r.complete:
                return r.value(column) is not None
            return coverage.orders_by(r.metrics.get(column), r.coverage)

        have = [r for r in runs if counts(r)]
        missing = [r for r in runs if not counts(r)]
        have.sort(key=lambda r: (r.value(column), -r.run_id if descending else r.run_id), reverse=descending)
        return have + missing

    complete = ordered([r for r in rows if not r.baseline and r.complete])
    incomplete = ordered([r for r in rows if not r.baseline and not r.complete])
    for i, row in enumerate(complete, 1):
        row.rank = i
    for row in incomplete:
        row.rank = None
    return [r for r in rows if r.baseline] + complete + incomplete


def filter_options() -> dict[str, list]:
    stats = RunTaskStat.objects.values_list("toolchain", "soc").distinct()
    return {
        "toolchains": sorted({t for t, _ in stats} | {DEFAULT_TOOLCHAIN}),
        "socs": sorted({s for _, s in stats}),
        "categories": sorted(set(Task.objects.filter(retired=False).values_list("category", flat=True))),
        "suites": sorted(set(Task.objects.filter(retired=False).values_list("suite", flat=True)) | {DEFAULT_SUITE}),
    }


# --- per-task leaderboard ------------------------------------------------------------------------


@dataclass
class TaskEntry:
    rank: int
    speedup: float
    submission_id: int
    submitted_at: Any
    who: str
    kind: str  # "person" or "model"
    run_id: int | None


def awaiting_review(task: Task, *, toolchain: str = DEFAULT_TOOLCHAIN) -> int:
    """Correct kernels of the task whose speedup the record flagged and no reviewer has vouched
    for yet: they wait on the review page instead of ranking."""
    return (RankedKernel.objects.filter(task=task, toolchain=toolchain, quarantined=False, flagged=True,
                                        submission__dismissal__isnull=True).count())


def task_leaderboard(task: Task, *, who: str = "all", toolchain: str = DEFAULT_TOOLCHAIN,
                     limit: int = 20) -> list[TaskEntry]:
    """Best correct public kernels of a task, fastest first, ties to the earlier submission.

    Each person or run appears once, with their best kernel (a leaderboard of 50 copies of one
    kernel tells nobody anything).
    """
    rows = best_kernels([task.pk], toolchain=toolchain).select_related("author", "run__model")
    if who == "people":
        rows = rows.filter(run__isnull=True)
    elif who == "models":
        rows = rows.filter(run__isnull=False)
    entries: list[TaskEntry] = []
    seen: set[tuple[str, int | None]] = set()
    # Plain slices, not a server-side cursor: the first few hundred rows nearly always hold
    # `limit` different submitters, and a cursor costs a round trip of its own.
    for r in _slices(rows, 200):
        ident = ("run", r.run_id) if r.run_id else ("user", r.author_id)
        if ident in seen:
            continue
        seen.add(ident)
        if r.run_id:
            name, kind = f"{r.run.model.name} / {r.run.name}", "model"
        else:
            name, kind = (r.author.username if r.author else "(deleted user)"), "person"
        entries.append(TaskEntry(len(entries) + 1, r.speedup, r.submission_id, r.submitted_at, name, kind,
                                 r.run_id))
        if len(entries) >= limit:
            break
    return entries


def _slices(qs: QuerySet, size: int):
    start = 0
    while True:
        chunk = list(qs[start:start + size])
        yield from chunk
        if len(chunk) < size:
            return
        start += size


# --- people --------------------------------------------------------------------------------------


@dataclass
class PersonRow:
    rank: int
    user_id: int
    username: str
    solved: int
    by_level: dict[int, int]
    score: float
    best_speedup: float | None


def people_leaderboard(*, toolchain: str = DEFAULT_TOOLCHAIN, limit: int = 100) -> list[PersonRow]:
    """People (not model runs) by score: solved tasks weighted by level plus speed bonus."""
    best = (RankedKernel.objects.filter(VOUCHED, run__isnull=True, author__isnull=False, toolchain=toolchain,
                                        quarantined=False, task__retired=False)
            .values("author_id", "task_id", "task__level").annotate(best=Max("speedup")))
    per_user: dict[int, dict[int, tuple[int, float | None]]] = defaultdict(dict)
    for row in best:
        per_user[row["author_id"]][row["task_id"]] = (row["task__level"], row["best"])
    names = dict(get_user_model().objects.filter(pk__in=list(per_user)).values_list("pk", "username"))
    rows = []
    for user_id, tasks in per_user.items():
        levels: dict[int, int] = defaultdict(int)
        for level, _ in tasks.values():
            levels[level] += 1
        speeds = [s for _, s in tasks.values() if s is not None]
        rows.append(PersonRow(0, user_id, names.get(user_id, "?"), len(tasks), dict(levels),
                              round(metrics.people_score(tasks), 4), max(speeds) if speeds else None))
    rows.sort(key=lambda r: (-r.score, -r.solved, r.username))
    for i, row in enumerate(rows[:limit], 1):
        row.rank = i
    return rows[:limit]


# --- taxonomy ------------------------------------------------------------------------------------


def taxonomy_counts(*, run_id: int | None = None, model_id: int | None = None, people: bool = False,
                    toolchain: str | None = None) -> list[tuple[str, int]]:
    """Failure categories, most common first, for a run, a model, people, or the whole site."""
    rows = FailureCount.objects.all()
    if run_id is not None:
        rows = rows.filter(run_id=run_id)
    elif model_id is not None:
        rows = rows.filter(run__model_id=model_id)
    elif people:
        rows = rows.filter(run__isnull=True)
    if toolchain:
        rows = rows.filter(toolchain=toolchain)
    agg = rows.values("category").annotate(n=Sum("count")).values_list("category", "n")
    return sorted(((c, int(n)) for c, n in agg), key=lambda kv: (-kv[1], kv[0]))


def taxonomy_failures(category: str, *, user, run_id: int | None = None, model_id: int | None = None,
                      limit: int = 50) -> QuerySet[Evaluation]:
    """The failing evaluations behind one bar that the viewer may see (submissions.selectors.visibility_q)."""
    rows = Evaluation.objects.all()
    visible = visibility_q(user, via="submission__")
    if visible is not None:
        rows = rows.filter(visible)
    rows = (rows.filter(failure_category=category, status=EvalStatus.DONE)
            .exclude(submission__quarantine__isnull=False)
            .select_related("submission__task", "submission__run__model", "submission__author"))
    if run_id is not None:
        rows = rows.filter(submission__run_id=run_id)
    elif model_id is not None:
        rows = rows.filter(submission__run__model_id=model_id)
    return rows.order_by("-pk")[:limit]


# --- heatmap and curves --------------------------------------------------------------------------


@dataclass
class Heatmap:
    runs: list[tuple[int, str]]
    tasks: list[tuple[int, str, int]]
    #: (run index, task index) → exec pass@1, only where the run judged the task.
    cells: dict[tuple[int, int], float]


def heatmap(filters: Filters, *, max_runs: int = 60) -> Heatmap:
    by_run = tallies_by_run(filters)
    runs = list(Run.objects.filter(pk__in=list(by_run)).select_related("model").order_by("model__name", "name"))
    runs = runs[:max_runs]
    task_ids = sorted({t.task_id for run in runs for t in by_run[run.pk]})
    tasks = list(Task.objects.filter(pk__in=task_ids).order_by("level", "slug").values_list("pk", "slug", "level"))
    t_index = {pk: i for i, (pk, _, _) in enumerate(tasks)}
    cells = {}
    for r_i, run in enumerate(runs):
        for t in by_run[run.pk]:
            if t.n and t.task_id in t_index:
                cells[(r_i, t_index[t.task_id])] = t.passed / t.n
    return Heatmap([(r.pk, f"{r.model.name} / {r.name}") for r in runs], tasks, cells)


def pass_curves(filters: Filters, *, run_ids: list[int] | None = None, max_runs: int = 8) -> list[dict]:
    """exec pass@k for k = 1..samples per task, per run (the paper's curves)."""
    by_run = tallies_by_run(filters, run_ids)
    runs = Run.objects.filter(pk__in=list(by_run)).select_related("model").order_by("-samples_per_task", "pk")
    out = []
    for run in runs[:max_runs]:
        k_max = max((t.n for t in by_run[run.pk]), default=1)
        out.append({"run": run.pk, "label": f"{run.model.name} / {run.name}",
                    "points": metrics.pass_curve(by_run[run.pk], min(k_max, 100))})
    return out


def submission_review(submission, *, user) -> dict:
    """What a submission's page says about staff review: owners and staff see why a result is
    quarantined; signed-in others may report a public result that is not quarantined."""
    is_author = user.is_authenticated and submission.author_id == user.pk
    record = Quarantine.objects.filter(submission=submission).first()
    shown = record if record and (is_author or user.is_staff) else None
    can_report = (user.is_authenticated and not is_author and record is None
                  and is_visible_to(submission, None))
    return {"quarantine": shown, "can_report": can_report}
