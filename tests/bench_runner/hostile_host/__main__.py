"""Writes every hostile host variant as a file: ``python -m tests.bench_runner.hostile_host OUT``
(then ``akgen eval --task relu_fp32_dynamic --kernel K --host OUT/<variant>.cpp`` judges one)."""

from __future__ import annotations

import sys
from pathlib import Path

from bench_runner.tasks import get_task
from tests.bench_runner.hostile_host import write_all

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m tests.bench_runner.hostile_host OUT_DIR")
    written = write_all(get_task("relu_fp32_dynamic").host_template.read_text(), Path(sys.argv[1]))
    print(f"{len(written)} host files in {sys.argv[1]}")
