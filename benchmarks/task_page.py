"""One task with 1,000,000 evaluations (as RL sampling makes them): its page and API latency.

    .venv/bin/python benchmarks/task_page.py [--n 1000000] [--task relu_fp32_dynamic] [--requests 50]
                                             [--max-seconds 60] [--reload] [--show-sql]

Loads N judged submissions of ONE task — spread over a few model runs (most of them, the way RL
sampling produces thousands of samples per task) and a few dozen people; about half passed with
speedups, the rest wrong_answer / compile_error / runtime_error / timeout with failure
categories — into PostgreSQL (database `akgen_bench_task` on the local server, or
BENCH_DATABASE_URL) with COPY. Then it brings every aggregate the project keeps up to date by
running the project's own rebuilds (every `manage.py rebuild_*` command, then
`tasks.services.task_stats_rebuild` when it exists), so it stays right when the aggregates change,
and requests, through the Django app in-process (test client: full middleware and templates, no
network):

    /tasks/<slug>/                    the task page
    /tasks/<slug>/submissions/        the task's submissions list
    /api/v1/tasks/<slug>/             the task in the API (token with the read scope)
    /api/v1/leaderboard/tasks/<slug>/ the task's leaderboard in the API

printing p50 / p95 and the SQL queries of one request (count, total and slowest SQL time).
Target: p95 under 100 ms for each. Each URL gets --requests requests, or fewer (at least 5) when
they would take more than --max-seconds. The loaded rows are reused by later runs with the same
--n and --task (--reload drops the database and loads afresh); the rebuilds run every time.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

MARKER = "bench:task_page"  # Evaluation.worker of every loaded row
RUNS = 4  # model runs sampling the task; they hold RUN_SHARE of the samples
RUN_SHARE = 0.85
PEOPLE = 40
PRIVATE_SHARE = 0.05  # of people's submissions
#: (verdict, failure category, compiled, weight) of the failures; passes are half of all samples.
FAILURES = [
    ("wrong_answer", "numerical_mismatch", True, 8), ("wrong_answer", "nan_inf", True, 3),
    ("wrong_answer", "unwritten_output", True, 3), ("compile_error", "undeclared", False, 10),
    ("compile_error", "api_mismatch", False, 6), ("compile_error", "template_deduction", False, 3),
    ("compile_error", "syntax", False, 2), ("runtime_error", "ub_capacity", True, 4),
    ("runtime_error", "alignment", True, 3), ("runtime_error", "gm_oob", True, 3),
    ("runtime_error", "queue_sync", True, 2), ("timeout", "timeout", True, 1),
]
PASS_SHARE = 0.5


def _database(url: str, *, expect: int, slug: str, drop: bool) -> bool:
    """Create the scratch database; drop it first when asked or when it holds another load.
    Returns whether the rows already there can be reused."""
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    reuse = False
    if exists and not drop:
        with psycopg.connect(url) as conn:
            try:
                row = conn.execute(
                    "SELECT count(*), count(DISTINCT s.task_id), min(t.slug) FROM submissions_evaluation e "
                    "JOIN submissions_submission s ON s.id = e.submission_id JOIN tasks_task t ON t.id = s.task_id "
                    "WHERE e.worker = %s", [MARKER]).fetchone()
                total = conn.execute("SELECT count(*) FROM submissions_evaluation").fetchone()[0]
                reuse = row[0] == expect == total and row[1] == 1 and row[2] == slug
            except psycopg.Error:
                reuse = False
        drop = not reuse
    if exists and drop:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        exists = None
    if not exists:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    return reuse


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("BROKER_URL", None)
    os.environ["AKGEN_DEBUG"] = "0"  # DEBUG records every query
    os.environ["AKGEN_SSL_REDIRECT"] = "0"
    os.environ["AKGEN_EMBEDDED_WORKER"] = "0"
    for name in ("AKGEN_RATE_READ_PER_MIN", "AKGEN_RATE_READ_USER_PER_MIN"):
        os.environ[name] = "1000000"  # measuring pages, not the rate limiter's refusals
    os.environ.setdefault("AKGEN_STATIC_ROOT", str(ROOT / "var" / "bench-static"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "akgen.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # hashed names, as in production
    call_command("sync_tasks", verbosity=0, stdout=io.StringIO())


def _columns(model, values: dict, now) -> tuple[list[str], list]:
    """Every concrete column of `model`: ours from `values` (by attname), the rest at the model's
    default, so columns added later need no change here. Returns (columns, per-row value getters)."""
    from django.db.models import AutoField, BigAutoField, SmallAutoField

    columns, fixed = [], []
    for field in model._meta.concrete_fields:
        if isinstance(field, (AutoField, BigAutoField, SmallAutoField)) and field.attname not in values:
            continue  # the sequence numbers it
        columns.append(field.column)
        if field.attname in values:
            fixed.append(None)
            continue
        if field.has_default():
            default = field.get_default()
        elif getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            default = now
        elif field.null:
            default = None
        else:
            raise SystemExit(f"{model.__name__}.{field.name} has no default: teach benchmarks/task_page.py a value")
        if isinstance(default, (dict, list)):
            default = json.dumps(default)
        fixed.append(("const", default))
    return columns, fixed


def _copy(cursor, model, names: list[str], rows, now) -> None:
    """COPY rows (tuples in the order of `names`, attnames) into the model's table."""
    columns, fixed = _columns(model, dict.fromkeys(names), now)
    position = {name: i for i, name in enumerate(names)}
    by_column = {f.column: f.attname for f in model._meta.concrete_fields}
    plan = [("take", position[by_column[c]]) if spec is None else spec for c, spec in zip(columns, fixed, strict=True)]
    with cursor.copy(f'COPY {model._meta.db_table} ({", ".join(columns)}) FROM STDIN') as copy:
        for row in rows:
            copy.write_row([row[arg] if kind == "take" else arg for kind, arg in plan])


def _load(n: int, slug: str) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from submissions.models import Evaluation, LanguageModel, Run, Submission
    from tasks.models import Task

    task = Task.objects.select_related("current_version").filter(slug=slug).first()
    if task is None or task.current_version is None:
        raise SystemExit(f"no task {slug!r} in the suite")
    rng = random.Random(20261201)
    User = get_user_model()
    with transaction.atomic():
        owner, _ = User.objects.get_or_create(username="bench-lab")
        people = [User.objects.get_or_create(username=f"bench-person-{i:02d}")[0] for i in range(PEOPLE)]
        per_run = int(n * RUN_SHARE) // RUNS
        runs = []
        for r in range(RUNS):
            model = LanguageModel.objects.create(owner=owner, name=f"bench-rl-model-{r}",
                                                 training_stage=("sft", "sft_rl")[r % 2])
            runs.append(Run.objects.create(model=model, name=f"rl-step-{(r + 1) * 100}", samples_per_task=per_run,
                                           decoding={"temperature": 1.0, "top_p": 0.95}))
    kernel = (ROOT / "bench_runner" / "suites" / "npukb" / slug / "expert" / "kernel.cpp").read_text()
    now = timezone.now()
    start_at = now - timedelta(days=30)
    step = timedelta(days=30) / max(1, n)
    weights = [w for *_, w in FAILURES]
    started = time.perf_counter()
    with connection.cursor() as cur:
        raw = cur.cursor
        first_id = raw.execute("SELECT coalesce(max(id), 0) FROM submissions_submission").fetchone()[0] + 1
        # Samples interleave over time like concurrent RL workers, people's submissions in between.
        owners = []
        for run in runs:
            owners += [("run", run.pk, i) for i in range(per_run)]
        owners += [("person", people[i % PEOPLE].pk, None) for i in range(n - len(owners))]
        rng.shuffle(owners)

        def submissions():
            for i, (kind, who, sample) in enumerate(owners):
                source = f"{kernel}\n// sample {i}\n"
                sha = hashlib.sha256(source.encode()).hexdigest()
                private = kind == "person" and rng.random() < PRIVATE_SHARE
                yield (first_id + i, task.pk, task.current_version_id, "device_only", source, None, sha,
                       who if kind == "person" else owner.pk,  # the API makes the run's owner the author
                       who if kind == "run" else None, sample, "private" if private else "public",
                       start_at + step * i)

        _copy(raw, Submission, ["id", "task_id", "task_version_id", "path", "kernel_source", "host_source",
                                "sha256", "author_id", "run_id", "sample_index", "visibility", "created_at"],
              submissions(), now)
        print(f"  {n:,} submissions copied ({time.perf_counter() - started:.0f} s)", flush=True)

        def evaluations():
            for i in range(n):
                at = start_at + step * i
                if rng.random() < PASS_SHARE:
                    speedup = round(math.exp(rng.gauss(0.0, 0.3)), 4)
                    cycles = int(20000 / speedup)
                    result = json.dumps({"verdict": "passed", "speedup": speedup, "schema_version": 1,
                                         "perf": {"cycles": cycles}})
                    row = ("passed", "", True, True, speedup, cycles, result)
                else:
                    verdict, category, compiled, _ = rng.choices(FAILURES, weights)[0]
                    result = json.dumps({"verdict": verdict, "schema_version": 1, "diagnostics": [
                        {"category": category, "severity": "error", "message": f"{category} (bench)"}]})
                    row = (verdict, category, compiled, False, None, None, result)
                verdict, category, compiled, passed, speedup, cycles, result = row
                yield (first_id + i, "cpu-sim", "Ascend910B2", "done", "", verdict, result, compiled, passed,
                       speedup, category, cycles, MARKER, 1, 0, "", None, at, at, at + timedelta(seconds=2), at)

        _copy(raw, Evaluation, ["submission_id", "toolchain", "soc", "status", "stage", "verdict", "result",
                                "compiled", "passed", "speedup", "failure_category", "cycles", "worker", "attempt",
                                "infra_failures", "error", "lease_until", "enqueued_at", "started_at",
                                "finished_at", "created_at"], evaluations(), now)
        raw.execute("SELECT setval(pg_get_serial_sequence('submissions_submission', 'id'), "
                    "(SELECT max(id) FROM submissions_submission))")
    print(f"loaded {n:,} submissions and evaluations of {slug} with COPY in {time.perf_counter() - started:.1f} s",
          flush=True)


def _rebuild() -> None:
    """Every aggregate the project keeps, recomputed from the loaded rows by its own rebuilds."""
    from django.core.management import call_command, get_commands
    from django.db import connection

    for name in sorted(c for c in get_commands() if c.startswith("rebuild_")):
        t0 = time.perf_counter()
        out = io.StringIO()
        call_command(name, stdout=out)
        print(f"manage.py {name}: {time.perf_counter() - t0:.1f} s  {out.getvalue().strip()[:200]}", flush=True)
    try:
        from leaderboard.task_stats import task_stats_rebuild
    except ImportError:
        task_stats_rebuild = None
    if task_stats_rebuild is not None:
        t0 = time.perf_counter()
        task_stats_rebuild()
        print(f"leaderboard.task_stats.task_stats_rebuild(): {time.perf_counter() - t0:.1f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # what autovacuum would do after a bulk load


def _token() -> str:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    get_user_model().objects.get_or_create(username="bench-api")
    out = io.StringIO()
    call_command("create_api_token", user="bench-api", scopes="read", name="bench", stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


def _measure(client, url: str, requests: int, max_seconds: float, headers: dict) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(url, **headers)  # warm caches and connections
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}: {response.content[:300]!r}")
    with CaptureQueriesContext(connection) as ctx:
        client.get(url, **headers)
    sql = [float(q.get("time") or 0) * 1000 for q in ctx.captured_queries]
    slow = sorted(((ms, q["sql"]) for ms, q in zip(sql, ctx.captured_queries, strict=True) if ms >= 10),
                  reverse=True)
    samples = []
    begun = time.perf_counter()
    for i in range(requests):
        if i >= 5 and time.perf_counter() - begun > max_seconds:
            break
        t0 = time.perf_counter()
        client.get(url, **headers)
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return {"p50": statistics.median(samples), "p95": samples[max(0, math.ceil(0.95 * len(samples)) - 1)],
            "n": len(samples), "queries": len(sql), "sql_ms": sum(sql), "slowest_sql_ms": max(sql, default=0.0), "slow": slow}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="evaluations on the one task (1,000,000)")
    parser.add_argument("--task", default="relu_fp32_dynamic", help="the task's slug")
    parser.add_argument("--requests", type=int, default=50, help="requests per URL (50)")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="stop a URL's requests after this (60)")
    parser.add_argument("--reload", action="store_true", help="drop the database and load afresh")
    parser.add_argument("--show-sql", action="store_true", help="print each URL's queries of 10 ms or more")
    args = parser.parse_args(argv)
    if not 1000 <= args.n <= 5_000_000:
        parser.error("--n must be between 1,000 and 5,000,000")
    url = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/akgen_bench_task")
    t_all = time.perf_counter()
    reuse = _database(url, expect=args.n, slug=args.task, drop=args.reload)
    _setup_django(url)
    if reuse:
        print(f"reusing {args.n:,} loaded evaluations of {args.task}")
    else:
        print(f"loading {args.n:,} evaluations of {args.task} into {urlparse(url).path.lstrip('/')} …", flush=True)
        _load(args.n, args.task)
    _rebuild()

    from django.test import Client

    auth = {"HTTP_AUTHORIZATION": f"Token {_token()}"}
    client = Client()
    slug = args.task
    urls = [
        ("task page", f"/tasks/{slug}/", {}),
        ("task submissions list", f"/tasks/{slug}/submissions/", {}),
        ("API task", f"/api/v1/tasks/{slug}/", auth),
        ("API task leaderboard", f"/api/v1/leaderboard/tasks/{slug}/", auth),
    ]
    print(f"\n{args.n:,} evaluations on {slug}; p50/p95 over up to {args.requests} requests per URL")
    print(f"{'':25} {'URL':44} {'p50 ms':>8} {'p95 ms':>8} {'reqs':>5} {'queries':>8} {'SQL ms':>8} "
          f"{'slowest':>8}")
    worst = 0.0
    for name, path, headers in urls:
        m = _measure(client, path, args.requests, args.max_seconds, headers)
        worst = max(worst, m["p95"])
        flag = "ok" if m["p95"] < 100 else "OVER TARGET"
        print(f"{name:25} {path:44} {m['p50']:8.1f} {m['p95']:8.1f} {m['n']:5d} {m['queries']:8d} "
              f"{m['sql_ms']:8.1f} {m['slowest_sql_ms']:8.1f}  {flag}", flush=True)
        if args.show_sql:
            for ms, text in m["slow"]:
                print(f"    {ms:7.1f} ms  {text[:400]}")
    print(f"\nworst p95: {worst:.1f} ms (target < 100 ms); total {time.perf_counter() - t_all:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
