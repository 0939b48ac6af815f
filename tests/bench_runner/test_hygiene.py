"""Hygiene of the sandbox over many jobs (issue #17): no zombies, memory bounded per sandbox,
no job directories left by a killed worker, no cached verdicts of a timeout.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench_runner import cache, sandbox, tasks
from bench_runner.evaluate import evaluate
from bench_runner.toolchains import cpu_sim

EVIL = Path(__file__).parent / "evil"
REPO = Path(__file__).resolve().parents[2]
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
needs_cpu_sim = pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim is not available here")


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A scratch root the sandbox uid can traverse (pytest's tmp_path is private to root)."""
    root = Path(tempfile.mkdtemp(prefix="akgen-hygiene-"))
    root.chmod(0o711)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def fork_and_eat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("evil-bin") / "fork_and_eat"
    subprocess.run(["gcc", "-O1", "-o", str(out), str(EVIL / "fork_and_eat.c")], check=True)
    return out


# ---------------------------------------------------------------------------------------------
# Zombies

_SUBREAPER_SCRIPT = textwrap.dedent('''
    import ctypes, os, sys
    from pathlib import Path
    from bench_runner import sandbox

    # As a worker that is PID 1 of a container, or under a subreaper: orphans come to us.
    assert ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER

    def children():
        found = []
        for task in Path("/proc/self/task").iterdir():
            found += (task / "children").read_text().split()
        return found

    def run(argv, **kw):
        with sandbox.job_dir() as jd:
            (jd.box / "ok.c").write_text("int main(void){return 0;}\\n")
            return sandbox.run(argv, box=jd.box, logs=jd.logs, **kw)

    sandbox.backend()
    print("probe", len(children()))
    for _ in range(3):
        assert run(["gcc", "ok.c", "-o", "ok"]).ok
        assert run(["true"], writable_box=False).ok
    assert run(["sleep", "30"], limits=sandbox.Limits(wall_s=0.3)).limit == "wall"
    print("bwrap", len(children()))
    if sys.argv[1:] == ["eval"]:
        from bench_runner import tasks
        from bench_runner.evaluate import evaluate
        task = tasks.get_task("add_fp16_static")
        for _ in range(2):
            assert evaluate(task, task.expert_kernel.read_text(), use_cache=False, baseline=False).passed
        print("eval", len(children()))
    # The rlimit backend: a straggler left in the group is killed and re-parented to us.
    sandbox._backend = sandbox.Backend("rlimit", "test", drop_uid=sandbox.sandbox_uid())
    assert run(["sh", "-c", "sleep 30 & exit 0"]).ok
    print("rlimit", len(children()))
''')


@needs_bwrap
def test_no_zombies_remain_under_a_subreaper(tmp_path: Path, scratch: Path) -> None:
    args = ["eval"] if cpu_sim.CpuSim().availability().ok else []
    env = {**os.environ, "PYTHONPATH": str(REPO), "AKGEN_SCRATCH_DIR": str(scratch),
           "AKGEN_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("AKGEN_SANDBOX", None)
    done = subprocess.run([sys.executable, "-c", _SUBREAPER_SCRIPT, *args], capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    counts = dict(line.split() for line in done.stdout.splitlines())
    assert counts == {"probe": "0", "bwrap": "0", "rlimit": "0", **({"eval": "0"} if args else {})}


# ---------------------------------------------------------------------------------------------
# Memory per sandbox


def _eat(fork_and_eat: Path, *args: str, **limit_kw: int) -> sandbox.SandboxResult:
    with sandbox.job_dir() as jd:
        shutil.copy2(fork_and_eat, jd.box / "fork_and_eat")
        limits = sandbox.Limits(wall_s=20.0, cpu_s=20.0, **limit_kw)
        return sandbox.run(["./fork_and_eat", *args], box=jd.box, logs=jd.logs, limits=limits, writable_box=False)


@needs_bwrap
def test_memory_is_bounded_per_sandbox_not_per_process(fork_and_eat: Path) -> None:
    # 4 processes × 300 MiB, each well inside its 512 MiB address space: 1.2 GiB in all.
    start = time.monotonic()
    res = _eat(fork_and_eat, "4", "300", "20", memory_bytes=512 * sandbox.MiB)
    assert res.limit == "memory", (res, res.stderr)
    assert "out of memory" in res.stderr
    assert time.monotonic() - start < 10  # killed when it crossed the budget, not at the wall limit


@needs_bwrap
def test_a_larger_sandbox_budget_lets_several_processes_finish(fork_and_eat: Path) -> None:
    res = _eat(fork_and_eat, "3", "100", "0", memory_bytes=512 * sandbox.MiB,
               sandbox_memory_bytes=1024 * sandbox.MiB)
    assert res.ok, (res, res.stderr)
    assert res.stderr.count("holds 100 MiB") == 3


# ---------------------------------------------------------------------------------------------
# Job directories


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_stale_job_dirs_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    root = tmp_path / "scratch"
    root.mkdir()
    me, my_ticks = os.getpid(), sandbox._start_ticks(os.getpid())
    dead = root / f"job-{_dead_pid()}-12345-abcdefgh"
    reused = root / f"job-{me}-{my_ticks + 1}-abcdefgh"  # same pid, another process
    live = root / f"job-{me}-{my_ticks}-abcdefgh"
    mirror_tmp = root / f".mirror-{_dead_pid()}-1-abcdefgh"
    old_unowned, new_unowned = root / "job-oldoldol", root / "job-newnewne"
    other = root / "mirror"
    for d in (dead, reused, live, mirror_tmp, old_unowned, new_unowned, other):
        (d / "box").mkdir(parents=True)
        (d / "box" / "kernel.o").write_bytes(b"x" * 1000)
    (dead / "box" / "link").symlink_to(live / "box" / "kernel.o")  # never followed
    os.utime(old_unowned, (time.time() - 2 * sandbox.STALE_UNOWNED_AGE_S,) * 2)

    removed = sandbox.remove_stale_job_dirs(root)

    assert sorted(removed) == sorted([dead, reused, mirror_tmp, old_unowned])
    assert sorted(root.iterdir()) == sorted([live, new_unowned, other])
    assert (live / "box" / "kernel.o").is_file()


def test_job_dirs_of_a_killed_worker_are_removed_by_the_next_job(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "scratch"
    env = {**os.environ, "PYTHONPATH": str(REPO), "AKGEN_SCRATCH_DIR": str(scratch)}
    worker = subprocess.Popen(
        [sys.executable, "-c", "from bench_runner import sandbox; import time\n"
         "with sandbox.job_dir() as jd:\n    print(jd.root, flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True, env=env)
    try:
        left = Path(worker.stdout.readline().strip())
        assert left.is_dir() and left.parent == scratch
        assert sandbox.remove_stale_job_dirs(scratch) == []  # its owner still runs
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    assert left.is_dir()  # kill -9: no finally ran
    monkeypatch.setenv("AKGEN_SCRATCH_DIR", str(scratch))
    monkeypatch.setattr(sandbox, "_swept", set())
    with sandbox.job_dir() as jd:  # the next worker's first job sweeps
        assert not left.exists()
        assert jd.root.name.startswith(f"job-{os.getpid()}-")
    assert list(scratch.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# The cache and timeouts


@needs_cpu_sim
def test_a_compile_timeout_is_not_cached_but_a_compile_error_is(tmp_path: Path) -> None:
    add = tasks.get_task("add_fp16_static")
    kernel = add.expert_kernel.read_text()
    # The machine is "loaded": no compile finishes within 50 ms.
    hurried = dataclasses.replace(add, limits={**add.limits, "compile_wall_s": 0.05})
    first = evaluate(hurried, kernel, cache_dir=tmp_path, baseline=False)
    assert first.verdict == "compile_error"
    assert any(d.category == "timeout" for d in first.diagnostics), first.diagnostics
    assert not list((tmp_path / "results").rglob("*.json"))
    again = evaluate(add, kernel, cache_dir=tmp_path, baseline=False)  # same key: task.version unchanged
    assert again.verdict == "passed" and not again.cache["hit"]

    broken = kernel.replace("TILE_LENGTH);", "TILE_LENGTH)", 1)
    failed = evaluate(add, broken, cache_dir=tmp_path, baseline=False)
    assert failed.verdict == "compile_error" and not any(d.category == "timeout" for d in failed.diagnostics)
    hit = evaluate(add, broken, cache_dir=tmp_path, baseline=False)
    assert hit.cache["hit"] and hit.verdict == "compile_error"

    # An entry an older evaluator stored for a compile timeout is not served either.
    stored = hit.to_dict()
    stored["diagnostics"] = [{**stored["diagnostics"][0], "category": "timeout",
                              "message": "compilation exceeded the wall limit", "source": "sandbox"}]
    cache.Cache(tmp_path).put("results", hit.cache["key"], stored)
    assert not evaluate(add, broken, cache_dir=tmp_path, baseline=False).cache["hit"]
