"""The reconciler removes job directories of evaluator processes that died (kill -9), and keeps
those of live ones, alongside its database repairs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bench_runner import sandbox
from workers import reconcile

pytestmark = pytest.mark.django_db


def test_reconcile_removes_a_dead_workers_job_dir_and_keeps_a_live_one(tmp_path: Path, monkeypatch) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir(mode=0o711)
    monkeypatch.setenv("AKGEN_SCRATCH_DIR", str(scratch))
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = scratch / f"job-{gone.pid}-1-deadbeef"
    live = scratch / f"job-{os.getpid()}-{sandbox._start_ticks(os.getpid())}-livelive"
    for d in (dead, live):
        (d / "box").mkdir(parents=True)
        (d / "box" / "prog").write_bytes(b"\0" * 4096)

    assert reconcile.reconcile() == 0  # nothing to re-send in an empty database

    assert not dead.exists()
    assert (live / "box" / "prog").is_file()


def test_a_cleanup_failure_does_not_stop_the_reconciler(monkeypatch) -> None:
    def broken(*_a, **_k):
        raise OSError("scratch disk gone")

    monkeypatch.setattr(sandbox, "remove_stale_job_dirs", broken)
    assert reconcile.reconcile() == 0
