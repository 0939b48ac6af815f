"""Evaluator throughput on this machine: kernels per minute and the median time of each stage.

    .venv/bin/python benchmarks/eval_throughput.py [--kernels 120] [--workers N]

A mixed batch of distinct level-1 kernels (variants of the add_fp16_static and
relu_fp32_dynamic experts: different tilings and buffer counts that pass, wrong arithmetic, and
compile errors) is evaluated on cpu-sim by N worker threads (default: one per CPU), as the
platform's workers do, into a fresh result cache. The same batch is then submitted again, so
every answer comes from the cache. Targets (issue 4): 60+ distinct L1 kernels per minute on
2 cores, 1,000+ per minute for cache hits. Task-level artefacts (driver objects, baselines, the
emulator's precompiled header) are warmed first and reported separately, since a worker builds
them once per task, not once per submission.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_runner import tasks  # noqa: E402
from bench_runner.contracts import EvaluationResult  # noqa: E402
from bench_runner.evaluate import evaluate  # noqa: E402


def batch(n: int) -> list[tuple[tasks.Task, str]]:
    """``n`` distinct L1 submissions: ~70% correct variants, ~15% wrong, ~15% not compiling."""
    add = tasks.get_task("add_fp16_static")
    relu = tasks.get_task("relu_fp32_dynamic")
    add_src = add.expert_kernel.read_text()
    relu_src = relu.expert_kernel.read_text()
    variants: list[tuple[tasks.Task, str]] = []
    i = 0
    while len(variants) < n:
        kind = i % 20
        if kind < 7:  # correct: vary tiling and buffering
            tiles = (1, 2, 4, 8)[i % 4]
            bufs = (1, 2)[(i // 4) % 2]
            src = add_src.replace("TILE_NUM = 4;", f"TILE_NUM = {tiles};").replace("BUFFER_NUM = 2;",
                                                                                  f"BUFFER_NUM = {bufs};")
            variants.append((add, src))
        elif kind < 14:  # correct: vary the UB tile of relu
            tile = (512, 1024, 2048, 4096)[i % 4]
            src = relu_src.replace("tile_ = t.tileLength;", f"tile_ = t.tileLength < {tile} ? t.tileLength : {tile};")
            variants.append((relu, src))
        elif kind < 17:  # wrong answer
            variants.append((add, add_src.replace("Add(zLocal", "Sub(zLocal")))
        else:  # compile error
            variants.append((relu, relu_src.replace("Relu(yLocal", "Relux(yLocal")))
        # Make every source distinct, as different model samples are.
        t, s = variants[-1]
        variants[-1] = (t, s + f"\n// sample {i}\n")
        i += 1
    return variants


def run(items: list[tuple[tasks.Task, str]], workers: int, cache_dir: Path) -> tuple[float, list[EvaluationResult]]:
    def one(item: tuple[tasks.Task, str]) -> EvaluationResult:
        task, src = item
        return evaluate(task, src, cache_dir=cache_dir)

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one, items))
    return time.monotonic() - start, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", type=int, default=120)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="akgen-bench-") as tmp:
        cache_dir = Path(tmp)
        t0 = time.monotonic()
        for task in (tasks.get_task("add_fp16_static"), tasks.get_task("relu_fp32_dynamic")):
            evaluate(task, task.expert_kernel.read_text(), cache_dir=cache_dir, use_cache=False)
        warm = time.monotonic() - t0

        items = batch(args.kernels)
        cold_s, cold = run(items, args.workers, cache_dir)
        hot_s, hot = run(items, args.workers, cache_dir)

    verdicts = Counter(str(r.verdict) for r in cold)
    stages: dict[str, list[float]] = {}
    for r in cold:
        for stage, seconds in r.stage_durations_s.items():
            stages.setdefault(stage, []).append(seconds)
    hits = sum(bool(r.cache.get("hit")) for r in hot)
    print(f"machine: {os.cpu_count()} CPUs, {args.workers} worker threads, cpu-sim, sandbox "
          f"{cold[0].sandbox.get('backend')}")
    print(f"warm-up (driver objects, baselines, PCH for 2 tasks): {warm:.1f} s")
    print(f"distinct L1 kernels: {len(items)} in {cold_s:.1f} s = {len(items) / cold_s * 60:.0f} kernels/min "
          f"(target >= 60)   verdicts: {dict(verdicts)}")
    print(f"cache hits:          {hits}/{len(items)} in {hot_s:.2f} s = {len(items) / hot_s * 60:.0f} kernels/min "
          f"(target >= 1000)")
    print("median seconds per stage (per kernel, distinct batch):")
    for stage, values in stages.items():
        print(f"  {stage:13} {statistics.median(values):.3f}  (n={len(values)}, max {max(values):.3f})")
    print(f"  {'total':13} {statistics.median(r.duration_s for r in cold):.3f}")
    ok = len(items) / cold_s * 60 >= 60 and len(items) / hot_s * 60 >= 1000
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
