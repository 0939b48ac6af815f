"""The platform's answer to "is this task held out": bench_runner.splits over the served suites.

Releases leave evaluation tasks (and everything near them) out of training, the leaderboard's
benchmark mode scores only them and a run's progress says which split it covered; all three
ask :func:`eval_slugs`. The unit is the operator (bench_runner.splits.operator_of): a task's
``_static`` twin and its dtype variants are always in the same split.

``AKGEN_RELEASE_EVAL_TASKS`` (comma-separated task slugs or operator names) overrides every
suite's list; otherwise each suite's ``splits.toml``, else a hashed ``AKGEN_RELEASE_EVAL_PERCENT``
(20) per cent of its operators.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from bench_runner import splits
from core.conf import setting
from tasks.models import Task
from tasks.suites import UnknownSuite, suite_root


def explicit_operators() -> frozenset[str] | None:
    """The operators ``AKGEN_RELEASE_EVAL_TASKS`` names (slugs are mapped to theirs), or None."""
    value = setting("AKGEN_RELEASE_EVAL_TASKS")
    if value is None:
        return None
    names = [v.strip() for v in value.split(",")] if isinstance(value, str) else [str(v).strip() for v in value]
    return frozenset(splits.operator_of(n) for n in names if n)


def suite_split(suite: str, slugs: Iterable[str]) -> splits.SplitList:
    """The split list of one suite (its tasks' slugs are needed for the hash fallback)."""
    explicit = explicit_operators()
    if explicit is not None:
        return splits.SplitList(version="setting", eval=explicit, source="AKGEN_RELEASE_EVAL_TASKS")
    try:
        root = suite_root(suite)
    except UnknownSuite:
        root = None
    percent = int(setting("AKGEN_RELEASE_EVAL_PERCENT", splits.DEFAULT_EVAL_PERCENT))
    return splits.split_list(root, slugs, percent=percent)


def eval_slugs(tasks: Iterable[tuple[str, str]] | None = None) -> set[str]:
    """The held-out task slugs among ``tasks`` ((slug, suite) pairs; default: every task)."""
    pairs = list(tasks) if tasks is not None else list(Task.objects.values_list("slug", "suite"))
    by_suite: dict[str, list[str]] = defaultdict(list)
    for slug, suite in pairs:
        by_suite[suite].append(slug)
    out: set[str] = set()
    for suite, slugs in by_suite.items():
        listed = suite_split(suite, slugs)
        out.update(s for s in slugs if listed.is_eval(s))
    return out


def split_versions(suites: Iterable[str]) -> dict[str, str]:
    """{suite: the version of its split list}, for records that must say what they were split by."""
    out = {}
    for suite in sorted(set(suites)):
        slugs = list(Task.objects.filter(suite=suite).values_list("slug", flat=True))
        out[suite] = suite_split(suite, slugs).version
    return out
