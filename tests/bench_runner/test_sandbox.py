"""The sandbox holds against hostile programs: each limit ends its program and is reported.

Plain C programs from ``evil/`` stand in for kernels, so these tests need only gcc and bwrap.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench_runner import sandbox

EVIL = Path(__file__).parent / "evil"

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed "
                                "(apt-get install bubblewrap); the sandbox tests need it")


@pytest.fixture(scope="module")
def evil_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("evil-bin")
    for src in EVIL.glob("*.c"):
        if src.stem == "include_outside":
            continue
        subprocess.run(["gcc", "-O1", "-o", str(out / src.stem), str(src)], check=True)
    return out


@pytest.fixture
def job() -> Iterator[tuple[Path, Path]]:
    with sandbox.job_dir() as jd:
        yield jd.box, jd.logs


def _run(evil_bin: Path, job: tuple[Path, Path], name: str, *args: str, **limit_kw: float) -> sandbox.SandboxResult:
    box, logs = job
    shutil.copy2(evil_bin / name, box / name)
    limits = sandbox.Limits(**{"wall_s": 5.0, "cpu_s": 2.0, **limit_kw})
    return sandbox.run([f"./{name}", *args], box=box, logs=logs, limits=limits, writable_box=False)


def _processes_named(name: str) -> int:
    """Live (non-zombie) processes with this command name, whoever started them."""
    count = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:
            continue
        if fields.get("Name", "").strip() == name and not fields.get("State", "").strip().startswith("Z"):
            count += 1
    return count


def test_backend_is_bwrap_here() -> None:
    assert sandbox.backend().name == "bwrap", sandbox.backend().reason


def test_a_clean_program_runs_and_its_output_comes_back(job: tuple[Path, Path]) -> None:
    box, logs = job
    (box / "ok.c").write_text('#include <stdio.h>\nint main(void){puts("hello from the box");return 0;}\n')
    built = sandbox.run(["gcc", "ok.c", "-o", "ok"], box=box, logs=logs)
    assert built.ok, built.stderr
    ran = sandbox.run(["./ok"], box=box, logs=logs, writable_box=False)
    assert ran.exit_code == 0 and ran.limit is None
    assert ran.stdout == "hello from the box\n"


def test_endless_loop_is_killed_by_the_cpu_limit(evil_bin: Path, job: tuple[Path, Path]) -> None:
    result = _run(evil_bin, job, "spin", cpu_s=1.0, wall_s=20.0)
    assert result.limit == "cpu"
    assert result.wall_s < 15  # generous: the host may be busy


def test_a_blocked_program_is_killed_at_the_wall_clock_limit(evil_bin: Path, job: tuple[Path, Path]) -> None:
    start = time.monotonic()
    result = _run(evil_bin, job, "sleep_forever", wall_s=1.0)
    assert result.limit == "wall"
    assert time.monotonic() - start < 6


def test_fork_bomb_is_contained_and_leaves_nothing_behind(evil_bin: Path, job: tuple[Path, Path]) -> None:
    seen: list[int] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            seen.append(_processes_named("fork_bomb"))
            time.sleep(0.1)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        result = _run(evil_bin, job, "fork_bomb", wall_s=2.0, cpu_s=1.0, processes=32)
    finally:
        stop.set()
        watcher.join()
    assert result.limit in ("wall", "cpu")
    # The process limit held (RLIMIT_NPROC counts per user namespace, bwrap's helpers included).
    assert 0 < max(seen) <= 32, seen
    time.sleep(0.2)
    assert _processes_named("fork_bomb") == 0


def test_network_socket_is_a_seccomp_kill_and_no_connection_is_made(
        evil_bin: Path, job: tuple[Path, Path]) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    try:
        result = _run(evil_bin, job, "socket", str(port))
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert result.limit == "seccomp"


def test_writes_outside_the_box_fail_and_touch_nothing(evil_bin: Path, job: tuple[Path, Path], tmp_path: Path) -> None:
    target = tmp_path / "host-file"
    result = _run(evil_bin, job, "write_outside", str(target))
    # /tmp inside is private, so that one write may succeed; none reaches the host.
    assert result.exit_code is not None and result.exit_code <= 1
    assert not target.exists()
    assert not Path("/etc/akgen-escape").exists() and not Path("/usr/akgen-escape").exists()
    assert not (tmp_path / "akgen-escape").exists() and not (job[0] / "akgen-escape").exists()


def test_printing_gigabytes_hits_the_file_size_limit(evil_bin: Path, job: tuple[Path, Path]) -> None:
    result = _run(evil_bin, job, "flood", file_bytes=8 * sandbox.MiB, log_bytes=4096)
    assert result.limit == "file_size"
    assert result.stdout_bytes <= 8 * sandbox.MiB
    assert len(result.stdout) <= 4096


def test_allocating_all_memory_fails_inside_the_limit(evil_bin: Path, job: tuple[Path, Path]) -> None:
    result = _run(evil_bin, job, "eat_memory", memory_bytes=256 * sandbox.MiB)
    assert result.signal is not None and result.limit is None
    assert "malloc failed after" in result.stderr
    assert int(result.stderr.split("after ")[1].split()[0]) < 256


def test_include_of_a_host_file_does_not_reach_the_compile_log(job: tuple[Path, Path], tmp_path: Path) -> None:
    box, logs = job
    secret = tmp_path / "secret.h"
    secret.write_text("int leaked = 1; /* TOP-SECRET-TOKEN */\n")
    src = (EVIL / "include_outside.c").read_text().replace('"/root/.bashrc"', f'"{secret}"')
    (box / "inc.c").write_text(src)
    result = sandbox.run(["gcc", "-c", "inc.c", "-o", "inc.o"], box=box, logs=logs)
    assert result.exit_code not in (0, None)
    assert "No such file or directory" in result.stderr
    assert "TOP-SECRET-TOKEN" not in result.stderr and "root:x:0:0" not in result.stderr


def test_reading_host_secrets_at_run_time_fails(job: tuple[Path, Path]) -> None:
    box, logs = job
    result = sandbox.run(["/bin/sh", "-c", "cat /etc/shadow /etc/passwd /root/.bashrc; ls /work /home"],
                         box=box, logs=logs)
    assert "root:" not in result.stdout
    assert "No such file or directory" in result.stderr


def test_seccomp_filter_is_well_formed_for_both_arches() -> None:
    from bench_runner import seccomp

    for arch in seccomp.ARCHES:
        prog = seccomp.build_filter(arch)
        assert len(prog) % 8 == 0 and len(prog) // 8 < 256
    with pytest.raises(seccomp.UnsupportedArchError):
        seccomp.build_filter("sparc")


def test_sandbox_setup_failure_is_an_infrastructure_error(job: tuple[Path, Path], tmp_path: Path) -> None:
    from bench_runner.errors import InfrastructureError

    box, logs = job
    with pytest.raises(InfrastructureError, match="sandbox set-up failed"):
        sandbox.run(["/bin/true"], box=box, logs=logs, mounts=[sandbox.Mount(tmp_path / "does-not-exist")])


def test_rlimit_fallback_still_enforces_limits(evil_bin: Path, job: tuple[Path, Path],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Where bwrap is unusable the fallback keeps the rlimits, the kill and the uid drop."""
    monkeypatch.setattr(sandbox, "_backend", sandbox.Backend("rlimit", "test", drop_uid=sandbox.sandbox_uid()))
    result = _run(evil_bin, job, "spin", cpu_s=1.0, wall_s=10.0)
    assert result.backend == "rlimit" and result.limit == "cpu"
    result = _run(evil_bin, job, "sleep_forever", wall_s=1.0)
    assert result.limit == "wall"
    box, logs = job
    ok = sandbox.run(["/bin/sh", "-c", "id -u"], box=box, logs=logs)
    assert ok.exit_code == 0 and ok.stdout.strip() == str(sandbox.sandbox_uid() if sandbox.sandbox_uid() is not None
                                                             else __import__("os").getuid())
