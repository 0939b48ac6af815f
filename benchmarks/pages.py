"""p50/p95 latency of the task list, a task page and a submission page with 100k submissions.

    .venv/bin/python benchmarks/pages.py [--submissions 100000] [--requests 200]

The Django app runs in-process (its test client: full middleware and templates, no network) on
PostgreSQL: database `akgen_bench_pages` on the local server, or BENCH_DATABASE_URL. The rows are
created once with bulk inserts and reused by later runs; one evaluation carries a real result
object from the evaluator (timeline and all), the rest small ones, spread over the suite's tasks
with a mix of verdicts. Target: p95 under 100 ms for each page.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

VERDICTS = ["passed"] * 5 + ["wrong_answer"] * 3 + ["compile_error"] * 4 + ["runtime_error", "timeout"]


def _ensure_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("BROKER_URL", None)
    os.environ["AKGEN_DEBUG"] = "0"  # DEBUG records every query
    os.environ["AKGEN_SSL_REDIRECT"] = "0"
    os.environ["AKGEN_EMBEDDED_WORKER"] = "0"
    os.environ.setdefault("AKGEN_STATIC_ROOT", str(ROOT / "var" / "bench-static"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "akgen.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("collectstatic", interactive=False, verbosity=0)  # hashed names, as in production


def _real_result(slug: str) -> dict:
    from bench_runner.evaluate import evaluate
    from bench_runner.tasks import get_task

    task = get_task(slug)
    return evaluate(task, task.expert_kernel.read_text(), None, path="device_only", baseline=False).to_dict()


def _load(count: int) -> int:
    """Create users, submissions and evaluations up to `count`; returns the real-result submission id."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from submissions.intake import source_sha256
    from submissions.models import Evaluation, Submission
    from tasks.models import Task

    call_command("migrate", verbosity=0)
    call_command("sync_tasks", verbosity=0)
    existing = Submission.objects.count()
    marker = Evaluation.objects.filter(worker="bench:real").values_list("submission_id", flat=True).first()
    if existing >= count and marker:
        return marker
    User = get_user_model()
    users = [User.objects.get_or_create(username=f"bench{i}")[0] for i in range(50)]
    tasks = list(Task.objects.select_related("current_version").filter(retired=False))
    kernel = (ROOT / "bench_runner/suites/npukb/add_fp16_static/expert/kernel.cpp").read_text()
    rng = random.Random(7)
    started = time.perf_counter()
    now = timezone.now()
    batch = 5000
    for start in range(existing, count, batch):
        subs = []
        for i in range(start, min(count, start + batch)):
            task = tasks[i % len(tasks)]
            source = f"{kernel}\n// sample {i}\n"
            subs.append(Submission(
                task=task, task_version=task.current_version, path="device_only", kernel_source=source,
                sha256=source_sha256(source, None), author=users[i % len(users)], visibility="public",
            ))
        subs = Submission.objects.bulk_create(subs)
        evals = []
        for sub in subs:
            verdict = rng.choice(VERDICTS)
            passed = verdict == "passed"
            evals.append(Evaluation(
                submission=sub, status="done", verdict=verdict, passed=passed,
                compiled=verdict not in ("compile_error",), speedup=rng.uniform(0.5, 1.6) if passed else None,
                cycles=rng.randint(2000, 90000) if passed else None, attempt=1,
                result={"verdict": verdict, "schema_version": 1}, finished_at=now,
            ))
        Evaluation.objects.bulk_create(evals)
        print(f"  loaded {min(count, start + batch)}/{count} submissions "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    from django.db import connection

    from leaderboard.task_stats import task_stats_rebuild

    task_stats_rebuild()  # bulk_create bypassed evaluation_finish, which keeps the counters
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # what autovacuum would do after a bulk load
    sub = Submission.objects.filter(task__slug="add_fp16_static").order_by("id").first()
    result = _real_result("add_fp16_static")
    Evaluation.objects.filter(submission=sub).update(
        result=result, verdict=result["verdict"], worker="bench:real",
        cycles=(result.get("perf") or {}).get("cycles"))
    return sub.pk


def _time(client, url: str, requests: int) -> tuple[float, float, int]:
    client.get(url)  # warm caches and connections
    samples = []
    status = 0
    for _ in range(requests):
        t0 = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - t0) * 1000)
        status = response.status_code
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))], status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/akgen_bench_pages")
    _ensure_database(url)
    _setup_django(url)
    from django.test import Client

    from submissions.models import Submission

    print(f"loading up to {args.submissions} submissions into {urlparse(url).path.lstrip('/')} …")
    real_id = _load(args.submissions)
    print(f"{Submission.objects.count()} submissions in the database\n")
    client = Client()
    pages = [
        ("task list", "/tasks/"),
        ("task list, L2 filter", "/tasks/?level=2"),
        ("task page", "/tasks/add_fp16_static/"),
        ("task submissions", "/tasks/add_fp16_static/submissions/"),
        ("submission page (real result)", f"/submissions/{real_id}/"),
    ]
    print(f"{'page':32} {'p50 ms':>8} {'p95 ms':>8}  status  ({args.requests} requests each)")
    worst = 0.0
    for name, url_path in pages:
        p50, p95, status = _time(client, url_path, args.requests)
        worst = max(worst, p95)
        print(f"{name:32} {p50:8.1f} {p95:8.1f}  {status}")
    print(f"\nworst p95: {worst:.1f} ms (target < 100 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
