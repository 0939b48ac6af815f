"""Wrong answers whose outputs hold NaN, Inf or never-written elements are verdicts like any other.

`akgen eval` judges a task's unmodified template (it writes nothing), a kernel whose output is
NaN (Ln of -|x|), one whose output is Inf (1 / (x * 0)) and one that writes only half its output
as wrong_answer in about a second. Through the platform each must end the same way — done,
wrong_answer, compiled, the right failure category, on the first attempt, within seconds — and
count where judged samples count: the run's pass@k, the taxonomy, the heatmap and a release's DPO
pool (as the rejected side of a pair; a passing expert sample per task gives the chosen side).

Two real deployments, driven only through their public surfaces (HTTP, the REST API with a
token, `manage.py`):

* production: PostgreSQL + RabbitMQ, a `manage.py rundramatiq` worker and the reconciler as
  subprocesses, the site served by pytest-django's live server;
* embedded: `manage.py serve` (SQLite, in-process worker) as a subprocess with a clean
  environment, after `manage.py migrate` and `manage.py sync_tasks`.

The evaluator's result object holds NaN/Inf (e.g. `"got": NaN` in a failed check); neither
SQLite's JSON check nor PostgreSQL's jsonb accepts those tokens, which is what these tests were
written to catch.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import math
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.platform.procs import Proc
from tests.platform.rabbitmq import purge_queues

ROOT = Path(__file__).resolve().parents[3]
SUITE = ROOT / "bench_runner" / "suites" / "npukb"
WAIT_S = 90.0  # a correct platform needs far less (each kernel takes a second or two on cpu-sim)
LEASE_S = "6"  # small, so that an evaluation stuck in `running` shows within the deadline
PASSED, WRONG = "passed", "wrong_answer"
UNWRITTEN, NAN_INF = "unwritten_output", "nan_inf"


# --- the kernels -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    label: str
    task: str
    kernel: str
    verdict: str
    category: str  # the expected failure category ("" for a pass)


def _read(slug: str, kind: str) -> str:
    return (SUITE / slug / kind / "kernel.cpp").read_text(encoding="utf-8")


def _mutate(slug: str, find: str, replace: str) -> str:
    expert = _read(slug, "expert")
    assert find in expert, f"the expert kernel of {slug} no longer contains {find!r}: update this test"
    return expert.replace(find, replace)


def samples() -> list[Sample]:
    """Three samples on each of three cheap L1 tasks: the template, a broken expert, the expert."""
    nan = _mutate(  # y = ln(-|x|): NaN wherever x != 0
        "relu_fp32_dynamic", "Relu(yLocal, xLocal, static_cast<int32_t>(n));",
        "Abs(yLocal, xLocal, static_cast<int32_t>(n));\n"
        "        Muls(yLocal, yLocal, -1.0f, static_cast<int32_t>(n));\n"
        "        Ln(yLocal, yLocal, static_cast<int32_t>(n));")
    inf = _mutate(  # y = 1 / (x * 0): +-Inf everywhere
        "abs_fp16", "Abs(yLocal, xLocal, cnt);",
        "Muls(yLocal, xLocal, half(0.0f), cnt);\n        Reciprocal(yLocal, yLocal, cnt);")
    half = _mutate(  # copies out only the first half of each core's tiles
        "add_fp16_static", "constexpr int32_t loopCount = TILE_NUM * BUFFER_NUM;",
        "constexpr int32_t loopCount = TILE_NUM * BUFFER_NUM / 2;")
    out = []
    for slug, broken_label, broken, category in (
        ("abs_fp16", "inf", inf, NAN_INF),
        ("relu_fp32_dynamic", "nan", nan, NAN_INF),
        ("add_fp16_static", "half output", half, UNWRITTEN),
    ):
        out.append(Sample(f"{slug} template", slug, _read(slug, "template"), WRONG, UNWRITTEN))
        out.append(Sample(f"{slug} {broken_label}", slug, broken, WRONG, category))
        out.append(Sample(f"{slug} expert", slug, _read(slug, "expert"), PASSED, ""))
    return out


K = 3  # samples per task


# --- HTTP --------------------------------------------------------------------------------------


class Http:
    """A tiny client of one deployment: JSON API calls with a token, pages without."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.token = token

    def request(self, method: str, path: str, body=None, *, auth: bool = True) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if auth:
            req.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def json(self, method: str, path: str, body=None, *, expect=(200,)) -> dict:
        status, raw = self.request(method, path, body)
        assert status in expect, f"{method} {path} answered {status}: {raw[:2000]!r}"
        return json.loads(raw)

    def page(self, path: str) -> str:
        status, raw = self.request("GET", path, auth=False)
        assert status == 200, f"GET {path} answered {status}: {raw[:2000]!r}"
        return raw.decode()


# --- the scenario both deployments go through --------------------------------------------------


def _first_error_category(result: dict | None) -> str:
    for diag in (result or {}).get("diagnostics") or []:
        if isinstance(diag, dict) and diag.get("severity", "error") == "error" and diag.get("category"):
            return str(diag["category"])
    return ""


def _pass_at_k(n: int, c: int, k: int) -> float | None:
    if n < k:
        return None
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _mean_pass_at_k(per_task: dict[str, tuple[int, int]], k: int) -> float | None:
    values = [v for n, c in per_task.values() if (v := _pass_at_k(n, c, k)) is not None]
    return sum(values) / len(values) if values else None


def _log_tail(logs: list[Path], chars: int = 2500) -> str:
    """The distinct exceptions in the children's logs, then the end of each log (access lines left out)."""
    parts = []
    for log in logs:
        if not log.exists():
            continue
        lines = [ln for ln in log.read_text(errors="replace").splitlines()
                 if '"GET /' not in ln and '"POST /' not in ln]
        errors = Counter(ln.strip() for ln in lines if re.match(r"^[\w.]*(Error|Exception|Violation)\b.*: ", ln))
        summary = "".join(f"  {n} x {text[:300]}\n" for text, n in errors.most_common(8))
        parts.append(f"--- {log.name}: exceptions ---\n{summary or '  none'}\n"
                     f"--- {log.name} (tail) ---\n" + "\n".join(lines)[-chars:])
    return "\n".join(parts)


def _wait(http: Http, run_id: int, count: int, deadline_s: float) -> tuple[float, bool]:
    """Poll the run's submissions until every evaluation is done or failed; (elapsed, finished)."""
    start = time.monotonic()
    while True:
        listing = http.json("GET", f"/api/v1/submissions/?run={run_id}&brief=true&limit=100")
        statuses = [s["status"] for s in listing["results"]]
        if len(statuses) == count and all(s in ("done", "failed") for s in statuses):
            return time.monotonic() - start, True
        if time.monotonic() - start > deadline_s:
            return time.monotonic() - start, False
        time.sleep(0.5)


def exercise(http: Http, *, where: str, logs: list[Path]) -> None:
    """Submit every sample into a fresh run, wait, and check each place a verdict is counted."""
    tag = uuid.uuid4().hex[:8]
    model = http.json("POST", "/api/v1/models/", {"name": f"true-verdicts-{tag}", "training_stage": "sft"},
                      expect=(201,))
    run = http.json("POST", "/api/v1/runs/", {"model": model["id"], "name": "nan-inf-unwritten",
                                              "samples_per_task": K, "path": "device_only",
                                              "toolchain": "cpu-sim"}, expect=(201,))
    run_id, run_label = run["id"], f"{model['name']} / {run['name']}"
    plan = samples()
    index: Counter = Counter()
    items = []
    for sample in plan:
        items.append({"task": sample.task, "path": "device_only", "kernel": sample.kernel, "run": run_id,
                      "sample_index": index[sample.task]})
        index[sample.task] += 1
    assert max(index.values()) == K
    batch = http.json("POST", "/api/v1/submissions/batch/", {"submissions": items}, expect=(201,))
    assert batch["accepted"] == len(plan), batch
    ids = {r["index"]: r["id"] for r in batch["results"]}
    by_id = {ids[i]: sample for i, sample in enumerate(plan)}

    # 1. Every evaluation ends, within seconds, with the verdict and category akgen eval gives.
    elapsed, finished = _wait(http, run_id, len(plan), WAIT_S)
    details = {sid: http.json("GET", f"/api/v1/submissions/{sid}/") for sid in by_id}
    wrong = []
    for sid, sample in by_id.items():
        d = details[sid]
        ev = (d.get("evaluations") or [{}])[0]
        got_category = ev.get("failure_category") or _first_error_category(d.get("result"))
        got = (d["status"], d["verdict"], ev.get("compiled"), got_category, ev.get("attempt"))
        want = ("done", sample.verdict, True, sample.category, 1)
        if got != want:
            error = (ev.get("error") or "").strip().splitlines()
            wrong.append(f"  submission {sid} ({sample.label}): expected status/verdict/compiled/category/attempt "
                         f"{want}, got {got}" + (f"; error: {error[0][:300]}" if error else ""))
    assert not wrong, (
        f"[{where}] {len(wrong)} of {len(plan)} evaluations did not end as akgen eval judges them "
        f"({'all finished' if finished else 'NOT all finished'} after {elapsed:.1f} s, deadline {WAIT_S:.0f} s, "
        f"lease {LEASE_S} s):\n" + "\n".join(wrong) + "\n" + _log_tail(logs))
    assert elapsed < 60, f"[{where}] every verdict came, but only after {elapsed:.1f} s"

    # The recount the aggregates must agree with, from the verdicts as the API reports them.
    per_task: dict[str, list[int]] = {}
    for sid, sample in by_id.items():
        ev = details[sid]["evaluations"][0]
        tally = per_task.setdefault(sample.task, [0, 0, 0])  # n, compiled, passed
        tally[0] += 1
        tally[1] += bool(ev["compiled"])
        tally[2] += details[sid]["verdict"] == PASSED
    exec_tallies = {t: (n, p) for t, (n, _, p) in per_task.items()}
    compile_tallies = {t: (n, c) for t, (n, c, _) in per_task.items()}

    # 2. The model board: compile and exec pass@1 (and pass@k where n >= k) of the run.
    board = http.json("GET", "/api/v1/leaderboard/models/")
    rows = [r for r in board["rows"] if r.get("run") == run_id]
    assert len(rows) == 1, f"[{where}] run {run_id} has {len(rows)} rows on /api/v1/leaderboard/models/: {board}"
    metrics = rows[0]["metrics"]
    for kind, tallies in (("exec", exec_tallies), ("compile", compile_tallies)):
        for k in (1, 5, 10):
            want = _mean_pass_at_k(tallies, k)
            got = (metrics.get(f"{kind}@{k}") or {}).get("value")
            assert (got is None and want is None) or (got is not None and want is not None
                                                     and abs(got - want) < 1e-9), (
                f"[{where}] run {run_id} {kind}@{k} on the model board is {got}, the recount of its "
                f"{len(plan)} judged samples gives {want} (per task n/compiled/passed: {per_task})")
    assert metrics.get("samples") == len(plan), f"[{where}] board counts {metrics.get('samples')} samples"

    progress = http.json("GET", f"/api/v1/runs/{run_id}/")["progress"]
    assert progress["evaluated"] == len(plan) and progress["pending"] == 0, progress
    for key, want in (("pass_at_1", _mean_pass_at_k(exec_tallies, 1)), ("pass_at_k", _mean_pass_at_k(exec_tallies, K))):
        assert progress[key] is not None and abs(progress[key] - want) < 1e-9, (
            f"[{where}] /api/v1/runs/{run_id}/ {key} is {progress[key]}, the recount gives {want}")

    # 3. The taxonomy counts every failure under its category, for this run.
    taxonomy = http.json("GET", f"/api/v1/leaderboard/taxonomy/?run={run_id}")
    got_counts = {r["category"]: r["failures"] for r in taxonomy["rows"]}
    want_counts = dict(Counter(s.category for s in plan if s.verdict != PASSED))
    assert got_counts == want_counts, (
        f"[{where}] /api/v1/leaderboard/taxonomy/?run={run_id} counts {got_counts}, expected {want_counts}")

    # 4. The heatmap shows the run's cell on each task with its pass rate.
    page = http.page("/leaderboard/heatmap/")
    cells = {}
    for tip in re.findall(r"<title>(.*?)</title>", page, flags=re.S):
        tip = html.unescape(tip)
        if tip.startswith(run_label + " · "):
            slug, _, value = tip[len(run_label) + 3:].partition(": ")
            cells[slug] = value
    want_cells = {t: f"pass@1 {p / n:.0%}" for t, (n, p) in exec_tallies.items()}
    assert cells == want_cells, (
        f"[{where}] the heatmap page shows {cells} for run '{run_label}', expected {want_cells}")
    export = json.loads(http.page("/leaderboard/export/heatmap.json"))
    exported = {r["task"]: r["exec_pass@1"] for r in export["rows"] if r["run"] == run_label}
    want_exported = {t: round(p / n, 6) for t, (n, p) in exec_tallies.items()}
    assert exported == want_exported, f"[{where}] heatmap.json has {exported}, expected {want_exported}"

    # 5. A release built from the run has every failing kernel as a rejected DPO completion.
    release = http.json("POST", "/api/v1/releases/", {
        "title": f"true verdicts {tag}",
        "filters": {"subsets": ["dpo"], "runs": [run_id], "include_eval_tasks": True, "validation_percent": 0},
    }, expect=(202,))
    start = time.monotonic()
    while release["status"] not in ("ready", "failed") and time.monotonic() - start < 90:
        time.sleep(0.5)
        release = http.json("GET", f"/api/v1/releases/{release['number']}/")
    assert release["status"] == "ready", f"[{where}] release {release['number']}: {release}\n{_log_tail(logs)}"
    status, raw = http.request("GET", f"/api/v1/releases/{release['number']}/download/")
    assert status == 200, f"[{where}] download answered {status}: {raw[:500]!r}"
    records = []
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        for name in zf.namelist():
            if re.search(r"/dpo/(train|validation)\.jsonl$", name):
                records += [json.loads(line) for line in zf.read(name).decode().splitlines() if line]
    rejected = {r["meta"]["rejected_submission_id"]: (r["meta"]["rejected_verdict"], r["meta"]["rejected_category"])
                for r in records}
    chosen = {r["meta"]["chosen_submission_id"] for r in records}
    want_rejected = {sid: (s.verdict, s.category) for sid, s in by_id.items() if s.verdict != PASSED}
    missing = {sid: f"{by_id[sid].label}: expected rejected {want}, got {rejected.get(sid, 'absent')}"
               for sid, want in want_rejected.items() if rejected.get(sid) != want}
    assert not missing, (
        f"[{where}] release v{release['number']} ({len(records)} dpo records) lacks failing kernels in its "
        f"rejected pool: {missing}")
    passing = {sid for sid, s in by_id.items() if s.verdict == PASSED}
    assert chosen and chosen <= passing, f"[{where}] dpo chosen {chosen}, the passing samples are {passing}"


# --- processes ---------------------------------------------------------------------------------


def _manage(args: list[str], env: dict[str, str], *, timeout: float = 180) -> str:
    proc = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, f"manage.py {' '.join(args[:1])} failed ({proc.returncode}):\n{proc.stderr[-3000:]}"
    return proc.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pythonpath() -> str:
    """Children import this checkout's bench_runner (not whatever an installed package points to)."""
    inherited = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join(p for p in (str(ROOT), inherited) if p)


GENEROUS_RATES = {name: "100000" for name in (
    "AKGEN_RATE_SUBMIT_PER_MIN", "AKGEN_RATE_SUBMIT_USER_PER_MIN", "AKGEN_RATE_READ_PER_MIN",
    "AKGEN_RATE_READ_USER_PER_MIN")}


# --- 1. production: PostgreSQL + RabbitMQ + `manage.py rundramatiq` ------------------------------


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.rabbitmq
@pytest.mark.skipif(not (os.environ.get("DATABASE_URL", "").startswith("postgres")
                         and os.environ.get("BROKER_URL", "").startswith("amqp")),
                    reason="needs DATABASE_URL=postgresql://… and BROKER_URL=amqp://… (scripts/test sets them)")
@pytest.mark.django_db(transaction=True)
def test_true_verdicts_on_postgresql_with_a_rundramatiq_worker(live_server, settings, tmp_path):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, connections

    call_command("sync_tasks", stdout=io.StringIO())
    for name, value in GENEROUS_RATES.items():
        setattr(settings, name, int(value))
    settings.AKGEN_RATE_KEY_PREFIX = f"akgen:test:{uuid.uuid4().hex[:12]}:"
    settings.AKGEN_RELEASES_DIR = str(tmp_path / "releases")  # the worker writes there, the site serves it
    get_user_model().objects.create_user("verdicts", password=None, is_staff=True)
    out = io.StringIO()
    call_command("create_api_token", user="verdicts", scopes="submit,read,export", stdout=out, stderr=io.StringIO())
    http = Http(live_server.url, out.getvalue().strip())

    purge_queues("eval.cpu-sim", "releases")  # leftovers of earlier runs would be judged against this db

    db = connection.settings_dict
    env = dict(os.environ, **GENEROUS_RATES)
    env.update(
        DATABASE_URL=f"postgresql://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        AKGEN_EVAL_LEASE_S=LEASE_S, AKGEN_WORKER_HEARTBEAT_S="2", AKGEN_VAR_DIR=str(tmp_path),
        AKGEN_RELEASES_DIR=str(tmp_path / "releases"), PYTHONUNBUFFERED="1", PYTHONPATH=_pythonpath(),
    )
    logs = [tmp_path / "worker.log", tmp_path / "reconciler.log"]
    procs = []
    try:
        procs.append(Proc(["rundramatiq", "--processes", "1", "--threads", "2", "--queues", "eval.cpu-sim",
                           "releases"], env, logs[0]))
        procs.append(Proc(["reconcile_evaluations", "--loop", "2", "--queued-for", "20"], env, logs[1]))
        exercise(http, where="postgresql+rabbitmq", logs=logs)
    finally:
        for proc in procs:
            proc.stop()
        connections.close_all()


# --- 2. embedded: SQLite + `manage.py serve` ---------------------------------------------------


@pytest.mark.slow
def test_true_verdicts_on_sqlite_with_the_embedded_worker(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "BROKER_URL", "REDIS_URL", "AKGEN_SQLITE_PATH", "AKGEN_RELEASES_DIR",
                        "AKGEN_EMBEDDED_WORKER", "AKGEN_RATE_BACKEND", "AKGEN_RATE_KEY_PREFIX")}
    env.update(GENEROUS_RATES, AKGEN_VAR_DIR=str(tmp_path), AKGEN_EVAL_LEASE_S=LEASE_S, AKGEN_DEBUG="1",
               AKGEN_WORKER_HEARTBEAT_S="2", PYTHONUNBUFFERED="1", PYTHONPATH=_pythonpath())
    _manage(["migrate", "--noinput", "-v0"], env)
    _manage(["sync_tasks"], env)
    token = _manage(["shell", "-c", (
        "from django.contrib.auth import get_user_model\n"
        "from django.core.management import call_command\n"
        "get_user_model().objects.create_user('verdicts', password=None, is_staff=True)\n"
        "call_command('create_api_token', user='verdicts', scopes='submit,read,export', name='tests')\n"
    )], env).strip().splitlines()[-1]
    port = _free_port()
    log = tmp_path / "serve.log"
    server = Proc(["serve", f"127.0.0.1:{port}", "--worker-threads", "2"], env, log)
    try:
        http = Http(f"http://127.0.0.1:{port}", token)
        start = time.monotonic()
        while True:
            with contextlib.suppress(OSError):
                if http.request("GET", "/healthz", auth=False)[0] in (200, 503):
                    break
            assert server.handle.poll() is None, f"manage.py serve exited:\n{_log_tail([log])}"
            assert time.monotonic() - start < 60, f"manage.py serve did not answer in 60 s:\n{_log_tail([log])}"
            time.sleep(0.3)
        exercise(http, where="sqlite+embedded", logs=[log])
    finally:
        server.stop()
