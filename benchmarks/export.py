"""Building a 200,000-record Ascend-CoT release: records per second and peak memory.

    .venv/bin/python benchmarks/export.py [--records 200000] [--reload]

Loads a scratch PostgreSQL database (`akgen_bench_export` on the local server, or
BENCH_DATABASE_URL) with COPY: 200 tasks, approved explanations (code_cot), doc Q&A, api and
kernel fixes (each kernel fix also gives a dpo pair) and one model run whose passing and failing
samples give the remaining dpo pairs, about ``--records`` records in all. Then, in a fresh
process so the loading does not count, it builds the release exactly as the worker does
(``releases.services.build_into``, evaluation tasks included so every record is written and
every one is checked for contamination) and zips it, printing records per second and the peak
resident memory of that process alone (``VmHWM`` of ``/proc/self/status``: ``ru_maxrss`` would
also count the parent it was started from, since Linux carries the high-water mark of the memory
image a process replaced through ``execve``, and the parent is large right after loading).
Targets: streaming, peak memory under 500 MB, under 60 s. The loaded rows are reused by later
runs with the same size on the same database (pass --reload to rebuild them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/akgen_bench_export"
TASKS = 200
CATEGORIES = ["elementwise", "activation", "reduction", "normalization", "matmul", "data_movement"]
T0 = datetime(2026, 1, 1, tzinfo=UTC)

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = {buffers};
constexpr int32_t TILE = {tile};
class Kernel{name} {{
  public:
    __aicore__ inline Kernel{name}() {{}}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total) {{
        uint32_t per = total / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * per, per);
        yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * per, per);
        loops = per / TILE;
        pipe.InitBuffer(inQ, BUFFER_NUM, TILE * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, TILE * sizeof(float));
    }}
    __aicore__ inline void Process() {{
        for (int32_t i = 0; i < loops; ++i) {{ CopyIn(i); Compute(i); CopyOut(i); }}
    }}
  private:
    __aicore__ inline void CopyIn(int32_t i) {{
        LocalTensor<float> x = inQ.AllocTensor<float>();
        DataCopy(x, xGm[i * TILE], TILE);
        inQ.EnQue(x);
    }}
    __aicore__ inline void Compute(int32_t i) {{
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        {op}(y, x, {length});
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }}
    __aicore__ inline void CopyOut(int32_t i) {{
        LocalTensor<float> y = outQ.DeQue<float>();
        DataCopy(yGm[i * TILE], y, TILE);
        outQ.FreeTensor(y);
    }}
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<float> xGm, yGm;
    uint32_t loops = 0;
}};
extern "C" __global__ __aicore__ void {slug}(GM_ADDR x, GM_ADDR y, uint32_t total) {{
    Kernel{name} op; op.Init(x, y, total); op.Process();
}}
// variant {variant}
"""
OPS = ["Exp", "Relu", "Abs", "Ln", "Sqrt", "Reciprocal", "Muls", "Adds"]


def kernel(task: int, variant: int, rng: random.Random) -> str:
    return KERNEL.format(buffers=rng.choice((1, 2)), tile=rng.choice((256, 512, 1024, 2048)), name=f"T{task}",
                         op=OPS[task % len(OPS)], length=rng.choice(("TILE", "TILE - 8", "TILE / 2")),
                         slug=f"task_{task:03d}", variant=variant)


def _database(url: str, *, drop: bool) -> bool:
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
        return not exists


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("BROKER_URL", None)
    os.environ["AKGEN_DEBUG"] = "0"
    os.environ["AKGEN_SSL_REDIRECT"] = "0"
    os.environ["AKGEN_EMBEDDED_WORKER"] = "0"
    os.environ.setdefault("AKGEN_SECRET_KEY", "benchmark-only-not-a-secret-" + "x" * 40)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "akgen.settings")
    import django

    django.setup()


class Loader:
    """COPY rows into a model's table from dicts; unset columns take the field's default."""

    def __init__(self, cursor):
        self.cursor = cursor

    def copy(self, model, rows) -> int:
        from django.db.models import JSONField

        fields = model._meta.concrete_fields
        columns = [f.column for f in fields]
        n = 0
        with self.cursor.copy(f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                values = []
                for f in fields:
                    v = row[f.attname] if f.attname in row else f.get_default()
                    if isinstance(f, JSONField) and v is not None:
                        v = json.dumps(v)
                    values.append(v)
                copy.write_row(values)
                n += 1
        table = model._meta.db_table
        self.cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                            f"(SELECT COALESCE(MAX(id), 1) FROM {table}))")
        return n


def load(records: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction

    from annotations.models import Annotation, Item, Queue
    from submissions.models import Evaluation, LanguageModel, Run, Submission
    from tasks.models import Task, TaskVersion

    call_command("migrate", verbosity=0)
    rng = random.Random(7)
    n_cot, n_qa, n_fix = records * 15 // 100, records * 5 // 100, records * 5 // 100  # fixes: per kind
    n_run_pairs = records - n_cot - n_qa - 2 * n_fix - n_fix  # kernel fixes give a dpo pair each
    per_task_pairs = max(1, n_run_pairs // TASKS)
    failing_per_task = max(1, per_task_pairs // 10)
    User = get_user_model()
    with transaction.atomic():
        users = [User.objects.create_user(f"expert{i}", password=None) for i in range(20)]
        owner = User.objects.create_user("lab", password=None)
        raw = connection.cursor().cursor
        loader = Loader(raw)
        loader.copy(Task, ({"id": t, "slug": f"task_{t:03d}", "title": f"Task {t}", "level": 1 + t % 3,
                            "category": CATEGORIES[t % len(CATEGORIES)], "shape_mode": "dynamic",
                            "dtypes": ["float32"], "paths": ["device_only", "host_device"]}
                           for t in range(1, TASKS + 1)))
        loader.copy(TaskVersion, ({"id": t, "task_id": t, "content_hash": hashlib.sha256(f"v{t}".encode()).hexdigest(),
                                   "spec": {"slug": f"task_{t:03d}"}, "api_desc": f"# Task {t}\n\nApply "
                                   f"{OPS[t % len(OPS)]} to x.\n" + "Constraints: 32-byte aligned tiles.\n" * 20,
                                   "template_kernel": "// complete the kernel\n" * 10,
                                   "expert_kernel": kernel(t, -1, random.Random(t)), "created_at": T0}
                                  for t in range(1, TASKS + 1)))
        raw.execute("UPDATE tasks_task SET current_version_id = id")
        model = LanguageModel.objects.create(owner=owner, name="bench-model")
        run = Run.objects.create(model=model, name="k", samples_per_task=per_task_pairs + failing_per_task)
        explain = Queue.objects.create(slug="explain", name="Explain", kind="explain")
        fixq = Queue.objects.create(slug="fix", name="Fix", kind="fix")
        docq = Queue.objects.create(slug="qa", name="Q&A", kind="docqa")
        subs, evals, items, annotations = [], [], [], []
        sid = iid = aid = 0

        def submission(task, verdict, *, run_id=None, sample=None, at=T0):
            nonlocal sid
            sid += 1
            text = kernel(task, sid, rng)
            subs.append({"id": sid, "task_id": task, "task_version_id": task, "path": "device_only",
                         "kernel_source": text, "host_source": None,
                         "sha256": hashlib.sha256(text.encode()).hexdigest(), "author_id": owner.pk,
                         "run_id": run_id, "sample_index": sample, "visibility": "public", "created_at": at})
            result = {"verdict": verdict, "reason": "case c0: 12 mismatches" if verdict == "wrong_answer" else "",
                      "compile_log": "kernel.cpp:12:9: error: 'DataCopyy' was not declared in this scope\n"
                      if verdict == "compile_error" else "",
                      "diagnostics": [] if verdict == "passed" else [{"category": "undeclared" if verdict ==
                                                                      "compile_error" else "numerical_mismatch",
                                                                      "message": "'DataCopyy' was not declared",
                                                                      "severity": "error"}],
                      "cases": [{"name": "c0", "passed": verdict == "passed", "max_abs_err": 0.5}]}
            evals.append({"id": sid, "submission_id": sid, "status": "done", "verdict": verdict, "result": result,
                          "compiled": verdict != "compile_error", "passed": verdict == "passed",
                          "failure_category": "" if verdict == "passed" else "numerical_mismatch",
                          "created_at": at, "finished_at": at})
            return sid

        def annotate(queue, task, sub, *, kind, question="", fix=None, reviewed=T0):
            nonlocal iid, aid
            iid += 1
            aid += 1
            items.append({"id": iid, "queue_id": queue.pk, "source": "question" if kind == "docqa" else "submission",
                          "task_id": task, "task_version_id": task, "submission_id": sub, "title": f"item {iid}",
                          "question": question, "verdict": "compile_error" if kind == "api" else
                          ("wrong_answer" if kind == "kernel" else ""), "created_at": reviewed})
            if kind == "explain":
                sections = [{"kind": k, "text": f"{k}: tile {iid % 7} of {TASKS} tasks; " * 8, "lines": [3, 9]}
                            for k in ("partitioning", "pipeline", "sync", "tail", "perf")]
            elif kind == "docqa":
                sections = [{"kind": "reasoning", "text": "The MTE moves 32-byte blocks. " * 6, "lines": None},
                            {"kind": "answer", "text": "Because DataCopy moves whole 32-byte blocks.", "lines": None}]
            else:
                sections = [{"kind": "fix", "text": "Restored the right API name and length. " * 4, "lines": None}]
            annotations.append({"id": aid, "item_id": iid, "annotator_id": users[aid % 20].pk, "status": "approved",
                                "sections": sections, "diagnosis": "The kernel misspells DataCopy." if fix else "",
                                "category": "undeclared" if kind == "api" else "", "fix_submission_id": fix,
                                "reviewer_id": users[(aid + 1) % 20].pk, "created_at": reviewed,
                                "updated_at": reviewed, "submitted_at": reviewed, "reviewed_at": reviewed})

        for i in range(n_cot):
            task = 1 + i % TASKS
            annotate(explain, task, submission(task, "passed"), kind="explain", reviewed=T0 + timedelta(minutes=i))
        for i in range(n_qa):
            annotate(docq, None, None, kind="docqa", question=f"Question {i}: why must DataCopy be aligned?")
        for kind, verdict in (("api", "compile_error"), ("kernel", "wrong_answer")):
            for i in range(n_fix):
                task = 1 + i % TASKS
                failing = submission(task, verdict)
                annotate(fixq, task, failing, kind=kind, fix=submission(task, "passed"))
        for task in range(1, TASKS + 1):
            for s in range(per_task_pairs + failing_per_task):
                submission(task, "passed" if s < per_task_pairs else "wrong_answer", run_id=run.pk, sample=s,
                           at=T0 + timedelta(seconds=s))
        loader.copy(Submission, subs)
        loader.copy(Evaluation, evals)
        for row in items:
            if row["task_id"] is None:
                row["task_version_id"] = None
        loader.copy(Item, items)
        loader.copy(Annotation, annotations)
    with connection.cursor() as cursor:  # set hint bits and statistics now, not during the first build
        cursor.execute("VACUUM (ANALYZE)")
    raw_count = {"submissions": len(subs), "annotations": len(annotations)}
    return raw_count


def peak_rss_mb() -> float:
    """This process's own peak resident memory in MB.

    ``VmHWM`` is the high-water mark of the current memory image only, which ``execve`` starts
    afresh; ``ru_maxrss`` keeps the larger of it and the image replaced by ``execve`` (for a
    process started by fork and exec: a copy of its parent, of the parent's size). Falls back to
    ``ru_maxrss`` where there is no /proc.
    """
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(records: int, cap: int) -> None:
    """The child process: build and zip, print one JSON line."""
    from releases import builder, services

    base = peak_rss_mb()
    with tempfile.TemporaryDirectory(prefix="akgen-bench-export-") as tmp:
        t0 = time.perf_counter()
        result = services.build_into(Path(tmp) / "release", number=1,
                                     data={"include_eval_tasks": True, "dpo_cap_per_task": cap})
        t1 = time.perf_counter()
        sha = builder.zip_release(Path(tmp) / "release", Path(tmp) / "release.zip", prefix="ascend-cot-v1")
        t2 = time.perf_counter()
        size = sum(f["bytes"] for f in result.files.values())
        zipped = (Path(tmp) / "release.zip").stat().st_size
    peak = peak_rss_mb()
    print(json.dumps({"records": result.records, "build_s": t1 - t0, "zip_s": t2 - t1, "bytes": size,
                      "zip_bytes": zipped, "peak_mb": peak, "baseline_mb": base, "sha256": sha,
                      "subsets": result.counts["subsets"], "overlaps": result.counts["decontamination"]}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--reload", action="store_true", help="drop and reload the scratch database")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    if args.measure:
        _setup_django(url)
        measure(args.records, cap=10_000)
        return 0
    # One marker per database, so a run on another database never trusts this one's rows.
    marker = ROOT / "var" / f"bench-export-{urlparse(url).path.lstrip('/') or 'default'}.json"
    fresh = _database(url, drop=args.reload)
    loaded = json.loads(marker.read_text()) if marker.exists() and not fresh else {}
    if loaded.get("records") != args.records:
        if not fresh:
            _database(url, drop=True)
        _setup_django(url)
        t0 = time.perf_counter()
        counts = load(args.records)
        print(f"loaded {counts['submissions']} submissions and {counts['annotations']} annotations "
              f"in {time.perf_counter() - t0:.1f} s")
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"records": args.records, **counts}))
    child = subprocess.run([sys.executable, __file__, "--measure", "--records", str(args.records)],
                           capture_output=True, text=True, check=False, env={**os.environ, "BENCH_DATABASE_URL": url})
    if child.returncode != 0:
        print(child.stdout, child.stderr, file=sys.stderr)
        return child.returncode
    r = json.loads(child.stdout.strip().splitlines()[-1])
    total = r["build_s"] + r["zip_s"]
    print(f"records:        {r['records']:,} ({', '.join(f'{k} {sum(v.values()):,}' for k, v in r['subsets'].items())})")
    print(f"build:          {r['build_s']:.1f} s, {r['records'] / r['build_s']:,.0f} records/s "
          f"({r['bytes'] / 1e6:,.0f} MB of JSONL)")
    print(f"zip:            {r['zip_s']:.1f} s ({r['zip_bytes'] / 1e6:,.0f} MB)")
    print(f"total:          {total:.1f} s, {r['records'] / total:,.0f} records/s (target: under 60 s)")
    print(f"peak RSS:       {r['peak_mb']:.0f} MB (after start-up {r['baseline_mb']:.0f} MB; target: under 500 MB)")
    print(f"contamination:  {r['overlaps']}")
    return 0 if r["peak_mb"] < 500 and total < 60 else 1


if __name__ == "__main__":
    sys.exit(main())
