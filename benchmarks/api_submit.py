"""Accepted submissions per second through POST /api/v1/submissions/ (and /batch/) on PostgreSQL.

    .venv/bin/python benchmarks/api_submit.py [--requests 3000] [--procs 4] [--batch-size 64]

What it measures: the Django app in-process (its WSGI callable, the full middleware stack, token
authentication, the atomic rate-limit counters, the per-user pending cap under its advisory lock,
validation, the INSERTs and the after-commit send) driven by --procs forked processes, each like a
sync WSGI worker that always has the next request waiting. Not included: HTTP parsing and the
network (no server in front), and the broker round trip: with no BROKER_URL the evaluation
message goes to dramatiq's in-memory StubBroker (built and enqueued, never consumed; nothing is
evaluated). Rate limits are raised for the run (they are policy, not capacity); the pending cap
keeps its default and the load is spread over --users accounts so it is never hit.

The database is `akgen_bench` on the local server (or BENCH_DATABASE_URL), dropped and migrated
afresh each run. Counts are bounded by --requests. Rate-limit counters use Redis when REDIS_URL
is set, else the database.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

KERNEL = (ROOT / "benchmarks" / "api_submit.py").read_text()[:4000]  # ~4 KiB of realistic text


def _prepare_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("BROKER_URL", None)  # StubBroker: messages are built and queued in memory
    os.environ["AKGEN_DEBUG"] = "0"  # DEBUG would record every query
    os.environ["AKGEN_SSL_REDIRECT"] = "0"
    os.environ["AKGEN_EMBEDDED_WORKER"] = "0"
    os.environ.setdefault("AKGEN_RATE_SUBMIT_PER_MIN", str(10**9))
    os.environ.setdefault("AKGEN_RATE_SUBMIT_USER_PER_MIN", str(10**9))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "akgen.settings")
    import django

    django.setup()


def _fixtures(users: int, k: int) -> list[dict]:
    """Users, each with a key and a run of k samples per task; the suite's tasks."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from accounts.services import token_create
    from submissions.runs import llm_create, run_create
    from tasks.models import Task, TaskVersion

    call_command("migrate", verbosity=0)
    slugs = []
    for slug in ("add_fp16", "relu_fp32", "softmax_fp32"):  # rows only: nothing is evaluated
        task = Task.objects.create(slug=slug, title=slug, level=1, category="elementwise", shape_mode="static",
                                   dtypes=["float16"], paths=["device_only", "host_device"])
        task.current_version = TaskVersion.objects.create(task=task, content_hash=slug.ljust(64, "0"),
                                                          spec={"slug": slug}, api_desc=f"# {slug}")
        task.save()
        slugs.append(slug)
    out = []
    for i in range(users):
        user = get_user_model().objects.create_user(f"bench{i}")
        key = token_create(user=user, name="bench", scopes=["submit", "read"]).key
        model = llm_create(owner=user, name=f"bench-model-{i}")
        run = run_create(owner=user, model_id=model.pk, name="bench", samples_per_task=k)
        out.append({"key": key, "run": run.pk, "slugs": slugs})
    return out


def _environ(path: str, body: bytes, key: str) -> dict:
    return {
        "REQUEST_METHOD": "POST", "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "localhost",
        "SERVER_PORT": "80", "HTTP_HOST": "localhost", "SERVER_PROTOCOL": "HTTP/1.1",
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
        "HTTP_AUTHORIZATION": f"Token {key}", "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr, "wsgi.multithread": False, "wsgi.multiprocess": True,
        "wsgi.run_once": False, "wsgi.version": (1, 0),
    }


def _proc_cpu_s(pid: int) -> float | None:
    """user+system CPU seconds of a local process (the PostgreSQL backend serving us)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _backend_pid() -> int | None:
    from django.db import connection

    connection.settings_dict["CONN_MAX_AGE"] = None  # one persistent connection per process
    connection.ensure_connection()
    return connection.connection.info.backend_pid


def _worker(jobs: list[tuple[str, bytes, str, int]], out: mp.Queue) -> None:
    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()
    statuses: dict[str, int] = {}
    latencies = []
    accepted = 0
    pid = _backend_pid()
    db_cpu0 = _proc_cpu_s(pid) if pid else None
    app_cpu0 = time.process_time()
    start = time.perf_counter()
    for path, body, key, items in jobs:
        seen = {}

        def start_response(status, headers, exc_info=None, seen=seen):
            seen["status"] = status.split()[0]

        t0 = time.perf_counter()
        chunks = app(_environ(path, body, key), start_response)
        payload = b"".join(chunks)
        latencies.append(time.perf_counter() - t0)
        statuses[seen["status"]] = statuses.get(seen["status"], 0) + 1
        if seen["status"] in ("200", "201", "207"):
            accepted += json.loads(payload)["accepted"] if items > 1 else 1
        elif len(statuses) < 5:
            print(seen["status"], payload[:300], file=sys.stderr)
    end = time.perf_counter()
    app_cpu = time.process_time() - app_cpu0
    db_cpu1 = _proc_cpu_s(pid) if pid else None
    same_backend = _backend_pid() == pid
    db_cpu = db_cpu1 - db_cpu0 if db_cpu0 is not None and db_cpu1 is not None and same_backend else None
    out.put({"start": start, "end": end, "statuses": statuses, "latencies": latencies,
             "accepted": accepted, "t_offset": time.time() - time.perf_counter(),
             "app_cpu": app_cpu, "db_cpu": db_cpu})


def _jobs(fixtures: list[dict], requests: int, batch_size: int, offset: int) -> list[tuple[str, bytes, str, int]]:
    """Distinct (run, task, sample_index) per item so every item is a new submission."""
    jobs = []
    counters = [offset] * len(fixtures)
    for n in range(requests):
        fx = fixtures[n % len(fixtures)]
        u = n % len(fixtures)
        items = []
        for _ in range(batch_size):
            i = counters[u]
            counters[u] += 1
            slug = fx["slugs"][i % len(fx["slugs"])]
            items.append({"task": slug, "path": "device_only", "kernel": f"// sample {i}\n{KERNEL}",
                          "run": fx["run"], "sample_index": i // len(fx["slugs"])})
        if batch_size == 1:
            jobs.append(("/api/v1/submissions/", json.dumps(items[0]).encode(), fx["key"], 1))
        else:
            jobs.append(("/api/v1/submissions/batch/", json.dumps({"submissions": items}).encode(), fx["key"],
                         batch_size))
    return jobs


def _run_phase(name: str, jobs: list, procs: int) -> dict:
    from django.db import connections

    connections.close_all()  # children open their own
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    shares = [jobs[i::procs] for i in range(procs)]
    children = [ctx.Process(target=_worker, args=(share, out)) for share in shares]
    for child in children:
        child.start()
    results = [out.get() for _ in children]
    for child in children:
        child.join()
    start = min(r["start"] + r["t_offset"] for r in results)
    end = max(r["end"] + r["t_offset"] for r in results)
    accepted = sum(r["accepted"] for r in results)
    latencies = sorted(x for r in results for x in r["latencies"])
    statuses: dict[str, int] = {}
    for r in results:
        for status, count in r["statuses"].items():
            statuses[status] = statuses.get(status, 0) + count
    wall = end - start
    app_cpu = sum(r["app_cpu"] for r in results)
    db_cpus = [r["db_cpu"] for r in results]
    db_cpu = sum(db_cpus) if all(x is not None for x in db_cpus) else None
    cpu_ms = (app_cpu + (db_cpu or 0.0)) / max(1, accepted) * 1000
    return {
        "app_cpu_ms_per_submission": round(app_cpu / max(1, accepted) * 1000, 2),
        "db_cpu_ms_per_submission": round(db_cpu / max(1, accepted) * 1000, 2) if db_cpu is not None else None,
        # What the CPUs could sustain if nothing else ran on them (app + PostgreSQL backend time;
        # Redis and the kernel's network stack are left out).
        "cpu_bound_per_s": round((os.cpu_count() or 1) * 1000 / cpu_ms, 1) if db_cpu is not None else None,
        "phase": name, "requests": len(jobs), "accepted": accepted, "wall_s": round(wall, 3),
        "accepted_per_s": round(accepted / wall, 1), "requests_per_s": round(len(jobs) / wall, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 2), "statuses": statuses,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="single-submission requests (bounded)")
    parser.add_argument("--batch-requests", type=int, default=40, help="batch requests")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--procs", type=int, default=(os.cpu_count() or 2) * 2, help="app processes")
    parser.add_argument("--users", type=int, default=16)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.requests > 100_000 or args.batch_requests > 2_000:
        parser.error("keep the counts bounded (requests 1..100000, batch requests ≤ 2000)")

    url = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/akgen_bench")
    _prepare_database(url)
    _setup_django(url)
    total = args.requests + args.batch_requests * args.batch_size + args.procs * 5
    users = max(args.users, total // 900 + 1)  # a run holds at most 1000 samples per task
    k = max(1, total // users + 2)
    fixtures = _fixtures(users, k)

    from django.conf import settings

    from submissions.models import Submission

    # Warm-up (imports, connections, caches) is excluded from the figures.
    warm = _jobs(fixtures, args.procs * 5, 1, offset=0)
    _run_phase("warm-up", warm, args.procs)
    done = len(warm) // len(fixtures) + 1
    phases = [_run_phase("single", _jobs(fixtures, args.requests, 1, offset=done), args.procs)]
    done += args.requests // len(fixtures) + 1
    if args.batch_requests:
        phases.append(_run_phase(f"batch×{args.batch_size}",
                                 _jobs(fixtures, args.batch_requests, args.batch_size, offset=done), args.procs))
    rows = Submission.objects.count()
    expected = sum(p["accepted"] for p in phases) + len(warm)
    report = {
        "database": urlparse(url)._replace(netloc=urlparse(url).hostname or "").geturl(),
        "rate_counter": "redis" if settings.AKGEN_RATE_BACKEND == "redis" and settings.REDIS_URL else "db",
        "procs": args.procs, "cpus": os.cpu_count(), "users": users,
        "phases": phases, "rows_ok": rows == expected, "rows": rows, "load_average": os.getloadavg()[0],
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"akgen API submit benchmark — PostgreSQL, {args.procs} app processes on {os.cpu_count()} CPUs, "
              f"rate counter: {report['rate_counter']}, {users} users")
        for p in phases:
            print(f"  {p['phase']:>9}: {p['accepted']:6d} accepted in {p['wall_s']:7.2f} s → "
                  f"{p['accepted_per_s']:8.1f} submissions/s ({p['requests_per_s']:.1f} req/s, "
                  f"p50 {p['p50_ms']} ms, p99 {p['p99_ms']} ms) {p['statuses']}")
        for p in phases:
            if p["cpu_bound_per_s"] is not None:
                print(f"  {p['phase']:>9}: CPU per submission: app {p['app_cpu_ms_per_submission']} ms + PostgreSQL "
                      f"{p['db_cpu_ms_per_submission']} ms → at most {p['cpu_bound_per_s']} submissions/s on "
                      f"{os.cpu_count()} idle CPUs")
        load = os.getloadavg()[0]
        print(f"  load average now {load:.1f} on {os.cpu_count()} CPUs"
              + (" — the machine is busy; wall-clock figures are low" if load > (os.cpu_count() or 1) else ""))
        print(f"  rows in the database: {rows} ({'as expected' if report['rows_ok'] else 'MISMATCH'})")
    return 0 if report["rows_ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
