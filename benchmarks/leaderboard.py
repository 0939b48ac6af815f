"""Leaderboard latency with 1,000,000 evaluations, and the time to rebuild the aggregates.

    .venv/bin/python benchmarks/leaderboard.py [--runs 50] [--tasks 200] [--samples 100] [--requests 40]

Loads runs × tasks × samples judged submissions (default 50 × 200 × 100 = 1,000,000, each with one
finished evaluation: a mix of passes with speedups and failures with taxonomy categories) into
PostgreSQL — database `akgen_bench_lb` on the local server, or BENCH_DATABASE_URL — with COPY, then:

1. times `leaderboard_rebuild()` (what `manage.py rebuild_leaderboard` runs) over all of them;
2. requests the model leaderboard, a task page and the taxonomy page through the Django app
   in-process (test client: full middleware and templates, no network) and prints p50/p95.

The model leaderboard caches each run's computed row under a key that changes with that run's
aggregates, so it is measured as: the first request after the rebuild (every row computed,
reported once), the first request after an evaluation finished (its run's row recomputed), and
steady state. Target: p95 under 100 ms.
The loaded rows are reused by later runs with the same sizes (pass --reload to rebuild them).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

FAILURES = [("wrong_answer", "numerical_mismatch", True), ("compile_error", "undeclared", False),
            ("compile_error", "api_mismatch", False), ("compile_error", "template_deduction", False),
            ("runtime_error", "ub_capacity", True), ("runtime_error", "alignment", True), ("timeout", "timeout", True)]
CATEGORIES = ["elementwise", "activation", "reduction", "normalization", "matmul", "data_movement"]


def _database(url: str, *, drop: bool) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and drop:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            exists = None
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("BROKER_URL", None)
    os.environ["AKGEN_DEBUG"] = "0"
    os.environ["AKGEN_SSL_REDIRECT"] = "0"
    os.environ["AKGEN_EMBEDDED_WORKER"] = "0"
    os.environ.setdefault("AKGEN_STATIC_ROOT", str(ROOT / "var" / "bench-static"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "akgen.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def _copy(cursor, table: str, columns: list[str], rows) -> None:
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def _load(runs: int, tasks: int, samples: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from submissions.models import LanguageModel, Run, Submission
    from tasks.models import Task, TaskVersion

    expected = runs * tasks * samples
    if Submission.objects.count() == expected and Run.objects.count() == runs:
        print(f"reusing {expected:,} loaded submissions")
        return
    rng = random.Random(20261201)
    with transaction.atomic():
        Submission.objects.all().delete()
        Run.objects.all().delete()
        Task.objects.filter(slug__startswith="bench_").delete()
        owner, _ = get_user_model().objects.get_or_create(username="bench-owner")
        task_rows = []
        for i in range(tasks):
            level = 1 if i < tasks * 0.3 else (2 if i < tasks * 0.8 else 3)
            task = Task.objects.create(slug=f"bench_{i:03d}", title=f"Bench task {i}", level=level,
                                       category=CATEGORIES[i % len(CATEGORIES)],
                                       shape_mode="static" if i % 2 else "dynamic", dtypes=["float16"],
                                       paths=["device_only", "host_device"])
            task.current_version = TaskVersion.objects.create(task=task, content_hash=f"bench{i}".ljust(64, "0"),
                                                              spec={}, api_desc=f"# bench {i}")
            task.save(update_fields=["current_version"])
            task_rows.append((task.pk, task.current_version_id, rng.uniform(0.05, 0.95)))
        run_rows = []
        for r in range(runs):
            model = LanguageModel.objects.create(owner=owner, name=f"bench-model-{r}",
                                                 training_stage=("base", "sft", "sft_rl")[r % 3])
            run = Run.objects.create(model=model, name=f"k{samples}", samples_per_task=samples,
                                     decoding={"temperature": 0.8})
            run_rows.append((run.pk, rng.uniform(0.2, 1.8)))
    now = timezone.now()
    start = time.perf_counter()
    with connection.cursor() as cur:
        raw = cur.cursor
        first_id = (raw.execute("SELECT coalesce(max(id), 0) FROM submissions_submission").fetchone()[0]) + 1

        def submissions():
            sid = first_id
            for run_id, _ in run_rows:
                for task_id, version_id, _ in task_rows:
                    for s in range(samples):
                        yield (sid, task_id, version_id, "device_only", "// bench", None, "0" * 64, None, run_id, s,
                               "public", now)
                        sid += 1

        _copy(raw, "submissions_submission", ["id", "task_id", "task_version_id", "path", "kernel_source",
                                              "host_source", "sha256", "author_id", "run_id", "sample_index",
                                              "visibility", "created_at"], submissions())

        def evaluations():
            sid = first_id
            for _, skill in run_rows:
                for _, _, ease in task_rows:
                    p_pass = min(0.97, skill * ease)
                    for _ in range(samples):
                        if rng.random() < p_pass:
                            speed = round(math.exp(rng.gauss(0, 0.35)), 4)
                            row = ("passed", "", True, True, speed, '{"verdict": "passed"}')
                        else:
                            verdict, category, compiled = FAILURES[rng.randrange(len(FAILURES))]
                            result = json.dumps({"verdict": verdict,
                                                 "diagnostics": [{"category": category, "severity": "error"}]})
                            row = (verdict, category, compiled, False, None, result)
                        yield (sid, "cpu-sim", "Ascend910B2", "done", "", row[0], row[5], row[2], row[3], row[4],
                               row[1], "", 1, 0, "", now, now, now, now)
                        sid += 1

        _copy(raw, "submissions_evaluation", ["submission_id", "toolchain", "soc", "status", "stage", "verdict",
                                              "result", "compiled", "passed", "speedup", "failure_category",
                                              "worker", "attempt", "infra_failures", "error", "enqueued_at",
                                              "started_at", "finished_at", "created_at"], evaluations())
        raw.execute("SELECT setval(pg_get_serial_sequence('submissions_submission', 'id'), "
                    "(SELECT max(id) FROM submissions_submission))")
        raw.execute("ANALYZE submissions_submission")
        raw.execute("ANALYZE submissions_evaluation")
    print(f"loaded {expected:,} submissions and evaluations with COPY in {time.perf_counter() - start:.1f} s")


def _time(client, url: str, n: int, *, before=None) -> list[float]:
    times = []
    for _ in range(n):
        if before:
            before()
        t0 = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - t0)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    return times


def _line(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    flag = "ok" if p95 < 0.1 else "OVER TARGET"
    return (f"  {name:<34} p50 {statistics.median(ordered) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   "
            f"({len(times)} requests) {flag}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--reload", action="store_true", help="drop the database and load afresh")
    args = parser.parse_args(argv)
    if args.runs * args.tasks * args.samples > 5_000_000:
        parser.error("keep it under 5M evaluations")
    url = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/akgen_bench_lb")
    _database(url, drop=args.reload)
    _setup_django(url)
    _load(args.runs, args.tasks, args.samples)

    from django.test import Client
    from django.utils import timezone

    from leaderboard.models import RunTaskStat
    from leaderboard.services import leaderboard_rebuild
    from tasks.models import Task

    t0 = time.perf_counter()
    counts = leaderboard_rebuild()
    rebuild_s = time.perf_counter() - t0
    print(f"rebuild_leaderboard over {args.runs * args.tasks * args.samples:,} evaluations: {rebuild_s:.1f} s "
          f"({counts['run_task_stats']:,} run×task rows, {counts['failure_counts']} failure counts, "
          f"{counts['ranked_kernels']:,} ranked kernels)")

    client = Client()
    task = Task.objects.filter(slug__startswith="bench_", level=2).order_by("slug").first()
    run_id = RunTaskStat.objects.values_list("run_id", flat=True).first()

    first_stat = RunTaskStat.objects.order_by("pk").values_list("pk", flat=True).first()

    def touch():
        """An evaluation finished somewhere: the aggregates changed, so the cached board is stale."""
        RunTaskStat.objects.filter(pk=first_stat).update(updated_at=timezone.now())

    client.get("/healthz")  # imports, connections
    first = _time(client, "/leaderboard/", 1)[0]
    print(f"model leaderboard, first request after the rebuild (every run's row computed): {first * 1000:.0f} ms")
    print("p50/p95 with the aggregates loaded:")
    print(_line("model board, an evaluation just finished", _time(client, "/leaderboard/",
                                                                   max(10, args.requests // 2), before=touch)))
    print(_line("model leaderboard (steady state)", _time(client, "/leaderboard/", args.requests)))
    print(_line("model leaderboard, level 2 filter", _time(client, "/leaderboard/?level=2", args.requests)))
    print(_line("task page", _time(client, f"/tasks/{task.slug}/", args.requests)))
    print(_line("taxonomy page (whole site)", _time(client, "/leaderboard/taxonomy/", args.requests)))
    print(_line("taxonomy page (one run)", _time(client, f"/leaderboard/taxonomy/?run={run_id}", args.requests)))
    print(_line("people leaderboard", _time(client, "/leaderboard/people/", args.requests)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
