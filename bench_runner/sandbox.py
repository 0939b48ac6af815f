"""Run one untrusted command (a compile or a kernel run) with limits, and say how it ended.

Every compile and every run goes through :func:`run`. The bubblewrap backend gives the command
fresh user, pid, network, ipc and uts namespaces, a root filesystem made only of ``/usr`` (read
only), the job's box directory and the mounts the caller names, a size-capped ``/tmp``, no
capabilities, a seccomp deny-list and rlimits (address space, CPU, processes, file size, open
files, no core dumps). As root the command runs as an unprivileged uid, because the kernel does
not apply RLIMIT_NPROC to root; inside its own user namespace the process count is then per
sandbox. Stdout and stderr go to files in a parent-only directory, capped by RLIMIT_FSIZE, so a
flood of output kills the writer instead of the worker. The parent kills the whole process group
at the wall-clock limit, or when the sandbox's processes together hold more memory than
``Limits.sandbox_memory_bytes`` (polled); ``--die-with-parent`` and the pid namespace take the
rest with it. Afterwards it reaps whatever of the sandbox was re-parented to it (on hosts where
the worker is PID 1 or a subreaper), and job directories name their owner, so those of a worker
that died are removed by the next one (:func:`remove_stale_job_dirs`).

Where bubblewrap is missing or cannot create namespaces, the ``rlimit`` backend (rlimits, a new
session and the unprivileged uid, nothing else) runs instead and says so in every result;
``AKGEN_SANDBOX=bwrap`` makes that a hard error. ``docs/security.md`` states what is a boundary.

Thread-safe and signal-free: workers call this from threads. It does not interpret outcomes
as verdicts (see :mod:`bench_runner.evaluate`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import select
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench_runner import seccomp
from bench_runner.errors import InfrastructureError

MiB = 1024 * 1024
GiB = 1024 * MiB
_DEFAULT_SANDBOX_UID = 65534


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Resource limits of one sandboxed command. Units are in the names."""

    wall_s: float = 30.0
    cpu_s: float = 20.0
    #: RLIMIT_AS of each process (virtual memory, so it counts reservations too).
    memory_bytes: int = 2 * GiB
    #: Resident memory (anonymous + shared) of all the sandbox's processes together, checked by
    #: the parent every ``_MEMORY_POLL_S``; None means ``memory_bytes``. Exceeding it kills the
    #: sandbox with ``limit == "memory"``.
    sandbox_memory_bytes: int | None = None
    #: RLIMIT_NPROC: processes and threads inside this sandbox.
    processes: int = 64
    #: RLIMIT_FSIZE: largest file any process may write, stdout and stderr included.
    file_bytes: int = 64 * MiB
    open_files: int = 256
    #: Size of the private /tmp.
    tmp_bytes: int = 256 * MiB
    #: How much of stdout and of stderr is read back.
    log_bytes: int = 256 * 1024


@dataclass(frozen=True, slots=True)
class Mount:
    """A host path made visible inside the sandbox (read-only unless ``writable``)."""

    source: Path
    #: Where it appears inside; by default the same path, so argv is backend-independent.
    target: str | None = None
    writable: bool = False
    #: A device node (bound with --dev-bind, e.g. /dev/davinci0 for the cann toolchain).
    device: bool = False


def tree_mount(path: Path, version: str) -> Mount:
    """A read-only mount of the tree at ``path`` that appears at ``path`` inside, through a mirror
    when the sandbox uid cannot reach it (see :func:`visible_copy`)."""
    return Mount(visible_copy(path, version), target=str(path))


@dataclass(frozen=True, slots=True)
class SandboxResult:
    """How a sandboxed command ended. Exactly one of ``exit_code`` and ``signal`` is set."""

    exit_code: int | None
    signal: int | None
    wall_s: float
    #: CPU seconds the parent could see; under bwrap only bwrap's own, so best effort.
    cpu_s: float
    stdout: str
    stderr: str
    stdout_bytes: int
    stderr_bytes: int
    #: The limit that ended the command: wall, cpu, memory, file_size, seccomp; None if none did.
    limit: str | None
    backend: str
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.limit is None

    @property
    def truncated(self) -> bool:
        return len(self.stdout.encode()) < self.stdout_bytes or len(self.stderr.encode()) < self.stderr_bytes


# ---------------------------------------------------------------------------------------------
# Backend selection


@dataclass(frozen=True, slots=True)
class Backend:
    name: str  # "bwrap" | "rlimit"
    reason: str
    bwrap: str | None = None
    drop_uid: int | None = None


_backend_lock = threading.Lock()
_backend: Backend | None = None


def sandbox_uid() -> int | None:
    """The uid sandboxed commands run as when the evaluator runs as root, else None."""
    if os.geteuid() != 0:
        return None
    return int(os.environ.get("AKGEN_SANDBOX_UID", _DEFAULT_SANDBOX_UID))


def backend() -> Backend:
    """Detect (once) which backend this host supports; AKGEN_SANDBOX=bwrap|rlimit forces one."""
    global _backend
    with _backend_lock:
        if _backend is None:
            _backend = _detect()
        return _backend


def _detect() -> Backend:
    wanted = os.environ.get("AKGEN_SANDBOX", "").strip()
    if wanted not in ("", "bwrap", "rlimit"):
        raise InfrastructureError(f"AKGEN_SANDBOX={wanted!r}: expected 'bwrap' or 'rlimit'")
    uid = sandbox_uid()
    if wanted == "rlimit":
        return Backend("rlimit", "forced by AKGEN_SANDBOX=rlimit", drop_uid=uid)
    if uid is not None and not shutil.which("setpriv"):
        raise InfrastructureError("running as root needs setpriv (util-linux) to drop to an "
                                  "unprivileged uid")
    bwrap = shutil.which("bwrap")
    problem = None
    if bwrap is None:
        problem = "bwrap not found (apt-get install bubblewrap)"
    else:
        # --as-pid-1: no init process inside, which would outlive bwrap and become a zombie
        # of ours when this process is PID 1 or a subreaper.
        probe = _drop_prefix(uid) + [bwrap, "--unshare-all", "--unshare-user", "--as-pid-1", "--ro-bind",
                                     "/usr", "/usr", *_usr_links(), "--", "/usr/bin/true"]
        try:
            done = subprocess.run(probe, capture_output=True, timeout=20, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            problem = f"bwrap probe failed: {exc}"
        else:
            if done.returncode != 0:
                problem = f"bwrap cannot create namespaces here: {done.stderr.decode(errors='replace').strip()}"
    if problem is None:
        return Backend("bwrap", "bubblewrap namespaces + seccomp + rlimits", bwrap=bwrap, drop_uid=uid)
    if wanted == "bwrap":
        raise InfrastructureError(f"AKGEN_SANDBOX=bwrap but {problem}")
    return Backend("rlimit", f"WEAK: {problem}; only rlimits, a new session and an unprivileged uid",
                   drop_uid=uid)


def _drop_prefix(uid: int | None) -> list[str]:
    if uid is None:
        return []
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]


def _usr_links() -> list[str]:
    """Recreate the host's merged-/usr links (/bin -> usr/bin …) so toolchains find themselves."""
    args: list[str] = []
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / name
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), f"/{name}"]
        elif host.is_dir():
            args += ["--ro-bind", str(host), f"/{name}"]
    return args


# ---------------------------------------------------------------------------------------------
# Job directories


def scratch_root() -> Path:
    """Parent of all job directories: ``AKGEN_SCRATCH_DIR`` or ``$TMPDIR/akgen-<euid>``.

    It must be traversable (0711) by the sandbox uid, because bubblewrap, running as that
    uid, resolves the box's path itself.
    """
    root = Path(os.environ.get("AKGEN_SCRATCH_DIR") or Path(tempfile.gettempdir()) / f"akgen-{os.geteuid()}")
    try:
        root.mkdir(mode=0o711, parents=True, exist_ok=True)
        st = root.lstat()
    except OSError as exc:
        raise InfrastructureError(f"cannot create the scratch directory {root}: {exc}") from exc
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        raise InfrastructureError(f"scratch directory {root} is not a directory owned by uid "
                                  f"{os.geteuid()} (a symlink or someone else's?); set AKGEN_SCRATCH_DIR")
    if st.st_mode & 0o711 != 0o711:
        root.chmod(st.st_mode | 0o711)
    return root


@dataclass(frozen=True, slots=True)
class JobDir:
    """One evaluation's scratch space.

    ``box`` is the sandbox's working directory (written by compiles); ``inputs`` is filled by
    the parent and only ever mounted read-only; ``logs`` is never mounted at all.
    """

    root: Path
    box: Path
    inputs: Path
    logs: Path


#: Job directories of the old unnamed form (``job-XXXXXXXX``) older than this are removed too.
STALE_UNOWNED_AGE_S = 6 * 3600.0
_swept_lock = threading.Lock()
_swept: set[Path] = set()


def _start_ticks(pid: int) -> int | None:
    """The process's start time (clock ticks since boot, /proc/<pid>/stat field 22), None if gone."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
        return int(stat_line[stat_line.rindex(")") + 2:].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def _owner_tag() -> str:
    """``<pid>-<start ticks>``: names this process so that its directories outlive it recognisably."""
    return f"{os.getpid()}-{_start_ticks(os.getpid()) or 0}"


def _owner_alive(name: str) -> bool | None:
    """Whether the process named in a ``job-<pid>-<ticks>-…`` name still runs; None if unnamed."""
    parts = name.split("-")
    if len(parts) < 4 or not (parts[1].isdigit() and parts[2].isdigit()):
        return None
    return _start_ticks(int(parts[1])) == int(parts[2])


def remove_stale_job_dirs(root: Path | None = None, *, unowned_age_s: float = STALE_UNOWNED_AGE_S) -> list[Path]:
    """Remove job (and half-made mirror) directories whose owning process is gone.

    A directory is named after its creator's pid and start time, so a pid reused by another
    process does not keep it alive. Directories without an owner in their name (made before
    names carried one) are removed once older than ``unowned_age_s``. Owners are looked up in
    this process's pid namespace: the scratch root must not be shared between containers with
    different pid namespaces (give each its own ``AKGEN_SCRATCH_DIR``). Returns what it removed.
    """
    root = root if root is not None else scratch_root()
    removed: list[Path] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        name = entry.name.removeprefix(".")
        if not name.startswith(("job-", "mirror-")) or not entry.is_dir(follow_symlinks=False):
            continue
        alive = _owner_alive(name)
        if alive is None:
            try:
                alive = now - entry.stat(follow_symlinks=False).st_mtime < unowned_age_s
            except OSError:
                continue
        if not alive:
            shutil.rmtree(entry.path, ignore_errors=True)
            if not os.path.lexists(entry.path):
                removed.append(Path(entry.path))
    return removed


def _sweep_once(root: Path) -> None:
    """Remove dead workers' job directories the first time this process uses ``root``."""
    with _swept_lock:
        if root in _swept:
            return
        _swept.add(root)
    remove_stale_job_dirs(root)


@contextlib.contextmanager
def job_dir(keep: Path | None = None) -> Iterator[JobDir]:
    """Create a job directory and remove it afterwards (or copy it to ``keep`` first).

    Its name carries this process's pid and start time, so if the process dies before the
    ``finally`` (kill -9), :func:`remove_stale_job_dirs` — run by the next process's first job
    and by the platform's reconciler — removes it.
    """
    scratch = scratch_root()
    _sweep_once(scratch)
    root = Path(tempfile.mkdtemp(prefix=f"job-{_owner_tag()}-", dir=scratch))
    root.chmod(0o711)
    job = JobDir(root, root / "box", root / "in", root / "logs")
    job.box.mkdir(mode=0o755)
    job.inputs.mkdir(mode=0o755)
    job.logs.mkdir(mode=0o700)
    try:
        yield job
    finally:
        if keep is not None:
            shutil.copytree(root, keep, symlinks=True, dirs_exist_ok=True)
        shutil.rmtree(root, ignore_errors=True)


def private_tmp(job: JobDir) -> str:
    """A writable scratch path for the command that the parent never reads by path.

    Under bwrap it is the sandbox's own size-capped /tmp; the rlimit backend gets a directory
    in the job, owned by the sandbox uid.
    """
    if backend().name == "bwrap":
        return "/tmp"
    tmp = job.root / "tmp"
    tmp.mkdir(mode=0o700, exist_ok=True)
    uid = backend().drop_uid
    if uid is not None:
        os.lchown(tmp, uid, uid)
    return str(tmp)


def visible_copy(path: Path, version: str = "") -> Path:
    """``path`` if the sandbox uid can reach it, else a read-only mirror it can (made once per
    ``version``: callers whose tree changes pass its content hash, so a mirror is never stale).

    Toolchain caches often live under a private home (``/root/.cache``), and a checkout may live
    in a private directory (``mktemp -d``); bubblewrap, running as the sandbox uid, must be able
    to resolve a mount's source. The mirror is hard-linked where possible, so it costs no copy of
    a multi-megabyte precompiled header.
    """
    if backend().drop_uid is None or world_reachable(path):
        return path
    key = hashlib.sha256(f"{path}\0{version}".encode()).hexdigest()[:16]
    mirror = scratch_root() / "mirror" / key / path.name
    if mirror.is_dir():
        return mirror
    tmp = Path(tempfile.mkdtemp(prefix=f".mirror-{_owner_tag()}-", dir=scratch_root()))
    try:
        for src in path.rglob("*"):
            dst = tmp / src.relative_to(path)
            if src.is_dir():
                dst.mkdir(parents=True, exist_ok=True)
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)
            dst.chmod(0o644)
        for d in [tmp, *(p for p in tmp.rglob("*") if p.is_dir())]:
            d.chmod(0o755)
        mirror.parent.mkdir(mode=0o711, parents=True, exist_ok=True)
        mirror.parent.chmod(0o711)
        os.rename(tmp, mirror)
    except FileExistsError:
        pass  # a concurrent caller finished first
    except OSError as exc:
        if not mirror.is_dir():
            raise InfrastructureError(f"cannot mirror {path} for the sandbox: {exc}") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return mirror


def world_reachable(path: Path) -> bool:
    """True when every directory on the way to ``path`` lets others through (the sandbox user can reach it)."""
    for part in [path, *path.parents]:
        try:
            if part.stat().st_mode & 0o001 == 0:
                return False
        except OSError:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Running


def run(
    argv: Sequence[str],
    *,
    box: Path,
    logs: Path,
    limits: Limits = Limits(),
    mounts: Sequence[Mount] = (),
    env: Mapping[str, str] | None = None,
    writable_box: bool = True,
    pass_files: Sequence[Path] = (),
) -> SandboxResult:
    """Run ``argv`` inside the sandbox with ``box`` as its working directory.

    Paths keep their host spelling inside (the box and every mount appear where they are on
    the host), so the same argv works with either backend. ``logs`` is a parent-only
    directory for stdout/stderr; it is never mounted. Each of ``pass_files`` is created empty
    and handed to the command as an open descriptor announced in the environment as
    ``AKGEN_FD_<i>``: the way results leave a read-only box.
    """
    be = backend()
    uid = be.drop_uid
    if uid is not None and writable_box:
        _prepare_box_for(uid, box)
    logs.mkdir(mode=0o700, parents=True, exist_ok=True)
    out_path, err_path = logs / "stdout.txt", logs / "stderr.txt"
    opened: list[int] = []
    try:
        out_fd = _open_log(out_path, opened, uid)
        err_fd = _open_log(err_path, opened, uid)
        passed = [_open_log(p, opened, uid) for p in pass_files]
        full_env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C", "LC_ALL": "C", "TMPDIR": "/tmp"}
        full_env.update(env or {})
        full_env.update({f"AKGEN_FD_{i}": str(fd) for i, fd in enumerate(passed)})
        info_r = status_r = None
        if be.name == "bwrap":
            seccomp_fd = _seccomp_fd(opened)
            info_r, info_w = os.pipe()
            status_r, status_w = os.pipe()
            opened += [info_r, info_w, status_r, status_w]
            cmd = _bwrap_argv(be, argv, box, limits, mounts, full_env, writable_box, seccomp_fd, info_w, status_w)
            fds = (*passed, seccomp_fd, info_w, status_w)
            popen_env, cwd = {"PATH": "/usr/bin:/bin"}, "/"
        else:
            cmd = _drop_prefix(uid) + _prlimit_argv(limits) + list(argv)
            fds = tuple(passed)
            popen_env, cwd = full_env, str(box)
        proc = _spawn(cmd, cwd, popen_env, out_fd, err_fd, fds)
        if info_r is not None:
            for fd in (info_w, status_w):
                os.close(fd)
                opened.remove(fd)
        status, killed_for, wall, cpu = _wait(proc, limits, info_r)
        started = _command_started(status_r) if status_r is not None else True
    finally:
        for fd in opened:
            with contextlib.suppress(OSError):
                os.close(fd)
    return _result(status, killed_for, wall, cpu, limits, be, out_path, err_path, started)


def _prepare_box_for(uid: int, box: Path) -> None:
    """Give the box itself to the sandbox uid so a compile can write its outputs there.

    Only the directory: the parent never changes ownership of, or writes to, anything the
    sandbox could have created, because such an entry may be a symlink planted to redirect it.
    """
    st = box.lstat()
    if st.st_uid != uid:
        os.lchown(box, uid, uid)


def _open_log(path: Path, opened: list[int], uid: int | None) -> int:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    opened.append(fd)
    if uid is not None:
        # /dev/fd/N reopens check the file's mode against the sandbox uid.
        os.fchown(fd, uid, uid)
    return fd


def _seccomp_fd(opened: list[int]) -> int:
    fd = os.memfd_create("akgen-seccomp", os.MFD_CLOEXEC)
    opened.append(fd)
    os.write(fd, seccomp.build_filter())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _prlimit_argv(limits: Limits) -> list[str]:
    cpu = max(1, int(limits.cpu_s + 0.999))
    return [
        "/usr/bin/prlimit",
        f"--as={limits.memory_bytes}",
        f"--cpu={cpu}:{cpu + 1}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
    ]


def _command_started(status_fd: int) -> bool:
    """Whether bwrap ran the command: its ``--json-status-fd`` reports an ``exit-code`` only when
    the command was executed, so a sandbox whose set-up failed is told apart from a command that
    printed "bwrap: …" and exited 1 itself (submitted code can do that; issue #30)."""
    os.set_blocking(status_fd, False)
    data = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(status_fd, 65536):
            data += chunk
    return b'"exit-code"' in data


def _bwrap_argv(be: Backend, argv: Sequence[str], box: Path, limits: Limits, mounts: Sequence[Mount],
                env: Mapping[str, str], writable_box: bool, seccomp_fd: int, info_fd: int,
                status_fd: int) -> list[str]:
    assert be.bwrap is not None
    cmd = _drop_prefix(be.drop_uid) + [
        be.bwrap,
        "--unshare-all", "--unshare-user", "--disable-userns",
        "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--hostname", "akgen-sandbox",
        "--ro-bind", "/usr", "/usr", *_usr_links(),
        "--proc", "/proc", "--dev", "/dev",
        "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
        "--bind" if writable_box else "--ro-bind", str(box), str(box),
    ]
    for m in mounts:
        flag = "--dev-bind" if m.device else "--bind" if m.writable else "--ro-bind"
        cmd += [flag, str(m.source), m.target or str(m.source)]
    cmd += ["--chdir", str(box), "--clearenv"]
    for k, v in env.items():
        cmd += ["--setenv", k, v]
    cmd += ["--seccomp", str(seccomp_fd), "--info-fd", str(info_fd), "--json-status-fd", str(status_fd), "--"]
    return cmd + _prlimit_argv(limits) + list(argv)


#: How often the parent sums the sandbox's resident memory.
_MEMORY_POLL_S = 0.05
#: Pids this module started and reaps itself (by pid): orphan reaping never touches them.
_spawned_lock = threading.Lock()
_spawned: set[int] = set()


def _spawn(cmd: list[str], cwd: str, env: Mapping[str, str], out_fd: int, err_fd: int,
           fds: tuple[int, ...]) -> subprocess.Popen[bytes]:
    try:
        with _spawned_lock:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out_fd, stderr=err_fd,
                                    pass_fds=fds, start_new_session=True, cwd=cwd, env=dict(env),
                                    close_fds=True)
            _spawned.add(proc.pid)
        return proc
    except OSError as exc:
        raise InfrastructureError(f"cannot start sandbox command {cmd[0]!r}: {exc}") from exc


class _ChildPid:
    """bwrap's child (pid 1 of the sandbox's pid namespace), read once from its --info-fd."""

    def __init__(self, info_fd: int | None) -> None:
        self.fd, self.pid, self.done = info_fd, None, info_fd is None

    def get(self, timeout_s: float = 0.0) -> int | None:
        if not self.done:
            self.pid = _bwrap_child_pid(self.fd, timeout_s) if self.fd is not None else None
            self.done = self.pid is not None or timeout_s > 0
        return self.pid


def _wait(proc: subprocess.Popen[bytes], limits: Limits, info_fd: int | None) -> tuple[int, str | None, float, float]:
    """Wait up to the wall limit, polling the sandbox's memory; at a limit kill the sandbox.

    Returns the wait status, the limit the parent killed it for ("wall", "memory" or None),
    wall and CPU seconds. Afterwards reaps the sandbox's processes that were re-parented to
    this one (see :func:`_reap_orphans`).
    """
    start = time.monotonic()
    deadline = start + limits.wall_s
    budget = limits.sandbox_memory_bytes if limits.sandbox_memory_bytes is not None else limits.memory_bytes
    child = _ChildPid(info_fd)
    killed_for: str | None = None
    try:
        pidfd = _pidfd(proc.pid)
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    killed_for = "wall"
                    break
                if _ready(pidfd, proc.pid, min(left, _MEMORY_POLL_S)):
                    break
                if _tree_memory(proc.pid, skip={proc.pid, child.get()}) > budget:
                    killed_for = "memory"
                    break
        finally:
            if pidfd is not None:
                os.close(pidfd)
        if killed_for is not None and info_fd is not None:
            # Kill bwrap's child (pid 1 of the sandbox's pid namespace) first: the kernel then
            # ends every process inside and bwrap exits.
            pid1 = child.get(0.5)
            if pid1 is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid1, signal.SIGKILL)
                _exited_within(proc.pid, 2.0)
    finally:
        # Before reaping, so the pid cannot have been reused: kill whatever is left in the group
        # (the whole command at a limit; stragglers of the rlimit backend otherwise).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        with _spawned_lock:
            _spawned.discard(proc.pid)
        _reap_orphans({proc.pid, child.get()} - {None})
    return status, killed_for, time.monotonic() - start, usage.ru_utime + usage.ru_stime


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except OSError:  # pragma: no cover - kernels before 5.3
        return None


def _ready(pidfd: int | None, pid: int, timeout_s: float) -> bool:
    """Whether ``pid`` exited within ``timeout_s`` (pidfd poll; polling waitid before 5.3)."""
    if pidfd is None:  # pragma: no cover - kernels before 5.3
        return not _poll_exit(pid, timeout_s)
    ready, _, _ = select.select([pidfd], [], [], max(0.0, timeout_s))
    return bool(ready)


def _children_of(pid: int) -> list[int]:
    """Direct children of every thread of ``pid`` (/proc/<pid>/task/*/children)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            found += [int(c) for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def _tree_memory(root: int, skip: set[int | None]) -> int:
    """Resident anonymous + shared-memory bytes of ``root``'s descendants (``skip`` not counted).

    Under bwrap every process of the sandbox descends from bwrap (an orphan inside is adopted
    by the namespace's pid 1), so the walk cannot be escaped by setsid or double forks.
    """
    total = 0
    seen: set[int] = set()
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        todo += _children_of(pid)
        if pid in skip:
            continue
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith(("RssAnon:", "RssShmem:")):
                total += int(line.split()[1]) * 1024
    return total


def _stat_fields(pid: int) -> tuple[str, int, int] | None:
    """(state, process group, session) of ``pid``; None if it is gone."""
    try:
        line = Path(f"/proc/{pid}/stat").read_text()
        rest = line[line.rindex(")") + 2:].split()
        return rest[0], int(rest[2]), int(rest[3])
    except (OSError, ValueError, IndexError):
        return None


def _reap_orphans(groups: set[int], timeout_s: float = 2.0) -> int:
    """Reap this process's children that belong to a finished sandbox; returns how many.

    They exist only where this process is PID 1 of its namespace or a child subreaper (as in
    containers): bwrap exits as soon as its pid 1 reports the command's status, so that pid 1
    (a session leader, the sandbox's ``child-pid``) and, under the rlimit backend, stragglers
    killed in the process group are re-parented here and would stay zombies forever. A child
    qualifies only if its session or process group is one of ``groups`` (pids this module
    started, or their bwrap child): such a pid stays allocated until it is reaped, and only
    this process can reap it, so waiting on it cannot take another thread's child. Pids this
    module is still waiting for itself are skipped.
    """
    me = os.getpid()
    reaped = 0
    deadline = time.monotonic() + timeout_s
    for pid in _children_of(me):
        with _spawned_lock:
            if pid in _spawned:
                continue
        fields = _stat_fields(pid)
        if fields is None or (fields[1] not in groups and fields[2] not in groups):
            continue
        if fields[0] != "Z":
            _exited_within(pid, max(0.0, deadline - time.monotonic()))  # SIGKILLed: dying now
        with contextlib.suppress(ChildProcessError):
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG) is not None:
                reaped += 1
    return reaped


def _exited_within(pid: int, timeout_s: float) -> bool:
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:  # pragma: no cover - kernels before 5.3
        return not _poll_exit(pid, timeout_s)
    try:
        ready, _, _ = select.select([pidfd], [], [], timeout_s)
    finally:
        os.close(pidfd)
    return bool(ready)


def _bwrap_child_pid(info_fd: int, timeout_s: float = 0.5) -> int | None:
    ready, _, _ = select.select([info_fd], [], [], timeout_s)
    if not ready:
        return None
    try:
        info = json.loads(os.read(info_fd, 4096).decode() or "{}")
    except (OSError, ValueError):
        return None
    pid = info.get("child-pid")
    return pid if isinstance(pid, int) and pid > 1 else None


def _could_be_cpu_limit(wall: float, limits: Limits) -> bool:
    """Whether a run of ``wall`` seconds can have used its RLIMIT_CPU: a process gets at most
    ``wall`` CPU seconds per CPU it may run on, so a SIGXCPU or SIGKILL before that is a signal the
    command sent itself (``raise(SIGKILL)`` is a crash, not a time limit)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except OSError:  # pragma: no cover - no affinity API
        cpus = os.cpu_count() or 1
    soft = max(1, int(limits.cpu_s + 0.999))
    return wall * cpus * 1.05 + 0.05 >= soft


def _result(status: int, killed_for: str | None, wall: float, cpu: float, limits: Limits, be: Backend,
            out_path: Path, err_path: Path, started: bool = True) -> SandboxResult:
    exit_code: int | None
    sig: int | None
    if os.WIFSIGNALED(status):
        exit_code, sig = None, os.WTERMSIG(status)
    else:
        code = os.WEXITSTATUS(status)
        # bwrap reports a child killed by signal N as exit status 128+N.
        if be.name == "bwrap" and 128 < code < 128 + 65:
            exit_code, sig = None, code - 128
        else:
            exit_code, sig = code, None
    limit = None
    if killed_for is not None:
        limit = killed_for
    elif (sig == signal.SIGXCPU or sig == signal.SIGKILL) and _could_be_cpu_limit(wall, limits):
        # SIGKILL that the parent did not send is the hard RLIMIT_CPU (cpu time under bwrap is
        # not visible to the parent, so it cannot be compared with the limit), once the run was
        # long enough to have used it.
        limit = "cpu"
    elif sig == signal.SIGXFSZ:
        limit = "file_size"
    elif sig == signal.SIGSYS:
        limit = "seccomp"
    if limit == "memory":
        _note_memory_kill(err_path, limits)
    stdout, out_n = _read_capped(out_path, limits.log_bytes)
    stderr, err_n = _read_capped(err_path, limits.log_bytes)
    if (be.name == "bwrap" and not started and exit_code == 1 and stderr.startswith(("bwrap: ", "setpriv: "))
            and err_n < 4096):
        # The sandbox could not be set up (a mount source missing or unreadable): not the
        # submission's fault.
        raise InfrastructureError(f"sandbox set-up failed: {stderr.strip()}")
    return SandboxResult(exit_code, sig, wall, cpu, stdout, stderr, out_n, err_n, limit, be.name)


def _note_memory_kill(err_path: Path, limits: Limits) -> None:
    """Say in the command's stderr why it died (the evaluator's out-of-memory wording)."""
    budget = limits.sandbox_memory_bytes if limits.sandbox_memory_bytes is not None else limits.memory_bytes
    with contextlib.suppress(OSError), err_path.open("a", encoding="utf-8") as fh:
        fh.write(f"\nakgen sandbox: out of memory: the sandbox's processes together exceeded "
                 f"{budget // MiB} MiB and were killed\n")


def _poll_exit(pid: int, timeout_s: float) -> bool:  # pragma: no cover - pre-5.3 kernels only
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return False
        time.sleep(0.005)
    return True


def _read_capped(path: Path, cap: int) -> tuple[str, int]:
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            data = fh.read(cap)
    except FileNotFoundError:
        return "", 0
    return data.decode("utf-8", errors="replace"), size
