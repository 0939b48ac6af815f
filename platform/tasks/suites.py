"""Which suites the platform serves and where their task folders are.

Why: a deployment judges more than akgen's own suite — e.g. NPUKernelBench imported with
`akgen suite import-npukb` — and each task must be evaluated from its own suite's folder, on the
web host (prompts, releases) and on every worker host alike. ``AKGEN_SUITES`` names the extra
suites (``npukb=/srv/npukb-suite,other=/srv/other``); the default suite ``akgen`` is
bench_runner's (``AKGEN_SUITE_DIR`` or the packaged one).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from bench_runner import tasks as bench_tasks

DEFAULT_SUITE = "akgen"
#: What a suite name may be (also the API schema's pattern for ``?suite=``).
NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"
_NAME = re.compile(NAME_PATTERN)


class UnknownSuite(LookupError):
    """A suite name this host has no folder for (set AKGEN_SUITES)."""


def suite_roots() -> dict[str, Path]:
    """Suite name -> folder, read from the environment each time (tests and workers may set it)."""
    roots = {DEFAULT_SUITE: bench_tasks.suite_dir()}
    for item in filter(None, (part.strip() for part in os.environ.get("AKGEN_SUITES", "").split(","))):
        name, sep, path = item.partition("=")
        name = name.strip()
        if not sep or not _NAME.match(name) or not path.strip():
            raise UnknownSuite(f"AKGEN_SUITES entry {item!r}: write name=/path (name: lower-case letters, digits, _ -)")
        roots[name] = Path(path.strip())
    return roots


def suite_root(name: str) -> Path:
    roots = suite_roots()
    if name not in roots:
        raise UnknownSuite(f"no folder for suite {name!r} on this host: add {name}=/path/to/suite to AKGEN_SUITES "
                           f"(known: {', '.join(sorted(roots))})")
    return roots[name]


def valid_name(name: str) -> bool:
    return bool(_NAME.match(name))


def task_on_disk(slug: str, suite: str) -> bench_tasks.Task:
    """The bench_runner task ``slug`` of ``suite``, from that suite's folder."""
    return bench_tasks.get_task(slug, suite_root(suite))
