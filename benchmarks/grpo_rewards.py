"""GRPO reward throughput: completions scored per minute by trainer.rewards, local pool vs platform.

    .venv/bin/python benchmarks/grpo_rewards.py [--completions 48] [--pool 1,2] \
        [--url http://host:8000 --token KEY]

A batch of distinct completions as a policy writes them (a think block, then a ```cpp block:
mostly correct variants of the add_fp16_static and relu_fp32_dynamic experts, some wrong, some
not compiling, a few unparsable and a few repeated) is scored by ``BatchEvaluator`` with a local
process pool of each size, into a fresh result cache, then once more (every answer a cache hit).
With ``--url`` the same batch goes through ``PlatformBatchEvaluator`` to the platform's
workers (their caches are theirs: use a batch they have not seen). Figures are printed, not
asserted (issue #21: reward throughput grows with pool size and with worker hosts).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_runner import platform_access  # noqa: E402
from benchmarks.eval_throughput import batch  # noqa: E402
from trainer import rewards  # noqa: E402


def completions(n: int) -> tuple[list[str], list[str], list[str]]:
    texts, tasks, paths = [], [], []
    for i, (task, kernel) in enumerate(batch(n)):
        if i % 12 == 5:
            text = "I would split the tensor over the cores and double-buffer."  # unparsable
        else:
            text = f"<think>sample {i}: tile it</think>\n```cpp\n{kernel}```\n"
        texts.append(text)
        tasks.append(task.slug)
        paths.append("device_only")
    for i in range(0, n, 10):  # repeats, answered once per batch
        texts.append(texts[i])
        tasks.append(tasks[i])
        paths.append(paths[i])
    return texts, tasks, paths


def measure(evaluator: rewards.BatchEvaluator, texts: list[str], tasks: list[str], paths: list[str]) -> str:
    started = time.monotonic()
    outcomes = evaluator.score(texts, tasks, paths, reader="benchmark")  # a repeat is scored again
    seconds = time.monotonic() - started
    verdicts: dict[str, int] = {}
    for o in outcomes:
        verdicts[o.verdict] = verdicts.get(o.verdict, 0) + 1
    s = evaluator.last
    return (f"{len(texts)} completions in {seconds:.1f} s = {len(texts) / seconds * 60:.0f}/min "
            f"({s.evaluations} evaluated, {s.duplicates} duplicates, {s.unparsable} unparsable, "
            f"{s.cache_hits} cache hits); verdicts {dict(sorted(verdicts.items()))}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--completions", type=int, default=48)
    p.add_argument("--pool", default="1,2", help="comma-separated local pool sizes")
    platform_access.add_arguments(p, scopes="read and submit")
    args = p.parse_args()
    remote = args.url is not None
    texts, tasks, paths = completions(args.completions)
    for size in (int(x) for x in args.pool.split(",")):
        with tempfile.TemporaryDirectory() as cache:
            options = rewards.EvalOptions(cache_dir=cache)
            with rewards.BatchEvaluator(options=options, pool_size=size) as ev:
                print(f"local pool {size}: cold {measure(ev, texts, tasks, paths)}")
                print(f"local pool {size}: warm {measure(ev, texts, tasks, paths)}")
    if remote:
        from trainer.platform_rewards import PlatformBatchEvaluator

        platform_access.resolve(args)
        ev = PlatformBatchEvaluator(api_url=args.url, token=args.token)
        print(f"platform {args.url}: {measure(ev, texts, tasks, paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
