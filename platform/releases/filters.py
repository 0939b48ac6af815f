"""What a curator chooses for a release, validated and put in one canonical form.

The same ``Filters`` come from the web form, the API and ``akgen export``; ``canonical()`` is
what the manifest records and what makes two builds comparable (sorted lists, no defaults left
implicit). Plain Python: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from bench_runner.release_format import SUBSETS

#: A performance pair (dpo_perf) needs the chosen kernel at least this much faster (ratio of modelled
#: speedups): closer timings are within what a different tiling choice or SoC could reverse.
PERF_MARGIN = 1.2
REVIEW_STATES = ("approved", "submitted")  # the minimum review state of annotations
SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,120}$")
MAX_LIST = 500


class FilterError(ValueError):
    def __init__(self, fields: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in fields.items()))
        self.fields = fields


@dataclass(frozen=True)
class Filters:
    subsets: tuple[str, ...] = SUBSETS
    levels: tuple[int, ...] = ()  # empty: every level
    categories: tuple[str, ...] = ()  # empty: every category
    since: date | None = None  # annotations reviewed / submissions created on or after
    until: date | None = None  # ... on or before
    min_review: str = "approved"
    runs: tuple[int, ...] = ()  # runs to draw preference pairs from; empty: every run
    exclude_tasks: tuple[str, ...] = ()
    include_eval_tasks: bool = False
    validation_percent: int = 10
    dpo_cap_per_task: int = 50
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def canonical(self) -> dict:
        return {
            "subsets": [s for s in SUBSETS if s in self.subsets],
            "levels": sorted(self.levels),
            "categories": sorted(self.categories),
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "min_review": self.min_review,
            "runs": sorted(self.runs),
            "exclude_tasks": sorted(self.exclude_tasks),
            "include_eval_tasks": self.include_eval_tasks,
            "validation_percent": self.validation_percent,
            "dpo_cap_per_task": self.dpo_cap_per_task,
        }


def _as_list(value) -> list:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out.extend(_as_list(v) if isinstance(v, str) else [v])
        return out
    return [value]


def _int(value, name: str, lo: int, hi: int, errors: dict) -> int | None:
    if isinstance(value, bool):
        errors[name] = f"must be an integer from {lo} to {hi}"
        return None
    try:
        number = int(str(value).strip()) if not isinstance(value, int) else value
    except (TypeError, ValueError):
        errors[name] = f"must be an integer from {lo} to {hi}"
        return None
    if not lo <= number <= hi:
        errors[name] = f"must be an integer from {lo} to {hi}"
        return None
    return number


def _bool(value) -> bool | None:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "on", "yes"):
        return True
    if text in ("0", "false", "off", "no", ""):
        return False
    return None


def _date(value, name: str, errors: dict) -> date | None:
    if value in (None, ""):
        return None
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        errors[name] = "must be a date, YYYY-MM-DD"
        return None


KNOWN = {"subsets", "levels", "categories", "since", "until", "min_review", "runs", "exclude_tasks",
         "include_eval_tasks", "validation_percent", "dpo_cap_per_task"}


def parse_filters(data: Mapping | None) -> Filters:
    """Filters from a JSON object or form data; raises FilterError naming every bad field."""
    data = data or {}
    errors: dict[str, str] = {}
    unknown = sorted(k for k in data if k not in KNOWN and k not in ("title", "csrfmiddlewaretoken"))
    if unknown:
        errors["filters"] = f"unknown filter(s): {', '.join(map(str, unknown))[:200]}"

    subsets = _as_list(data.get("subsets")) or list(SUBSETS)
    bad = [s for s in subsets if s not in SUBSETS]
    if bad or len(subsets) > len(SUBSETS) * 2:
        errors["subsets"] = f"choose from {', '.join(SUBSETS)}"
    levels = []
    for v in _as_list(data.get("levels"))[:MAX_LIST + 1]:
        n = _int(v, "levels", 1, 3, errors)
        if n is not None:
            levels.append(n)
    categories = [str(c) for c in _as_list(data.get("categories"))]
    exclude = [str(t) for t in _as_list(data.get("exclude_tasks"))]
    for name, values in (("categories", categories), ("exclude_tasks", exclude)):
        if len(values) > MAX_LIST or any(not SLUG.match(v) for v in values):
            errors[name] = f"a list of at most {MAX_LIST} names (letters, digits, - and _)"
    runs = []
    raw_runs = _as_list(data.get("runs"))
    if len(raw_runs) > MAX_LIST:
        errors["runs"] = f"at most {MAX_LIST} runs"
    for v in raw_runs[:MAX_LIST]:
        n = _int(v, "runs", 1, 10**18 - 1, errors)
        if n is not None:
            runs.append(n)
    since = _date(data.get("since"), "since", errors)
    until = _date(data.get("until"), "until", errors)
    if since and until and since > until:
        errors["until"] = "must not be before since"
    min_review = str(data.get("min_review") or "approved")
    if min_review not in REVIEW_STATES:
        errors["min_review"] = f"choose from {', '.join(REVIEW_STATES)}"
    include_eval = _bool(data.get("include_eval_tasks", False))
    if include_eval is None:
        errors["include_eval_tasks"] = "must be true or false"
    vp = data.get("validation_percent", 10)
    validation_percent = _int(10 if vp in (None, "") else vp, "validation_percent", 0, 50, errors)
    cap = data.get("dpo_cap_per_task", 50)
    dpo_cap = _int(50 if cap in (None, "") else cap, "dpo_cap_per_task", 1, 10_000, errors)
    if errors:
        raise FilterError(errors)
    return Filters(
        subsets=tuple(s for s in SUBSETS if s in subsets), levels=tuple(sorted(set(levels))),
        categories=tuple(sorted(set(categories))), since=since, until=until, min_review=min_review,
        runs=tuple(sorted(set(runs))), exclude_tasks=tuple(sorted(set(exclude))),
        include_eval_tasks=bool(include_eval), validation_percent=validation_percent, dpo_cap_per_task=dpo_cap,
    )
