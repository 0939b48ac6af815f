"""Content-addressed storage of results, baselines and compiled task objects.

A result is keyed by (kernel sha256, host sha256, task version, toolchain, SoC, evaluator
version), so an identical submission is answered without running anything, and any change to
the task, the emulator or the evaluator misses the cache. Entries are JSON files written
atomically (temp file + rename), so concurrent workers sharing a directory never read half an
entry; the worst race is two workers computing the same entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from bench_runner.contracts import json_safe


def default_dir() -> Path:
    """``AKGEN_CACHE_DIR``, else ``~/.cache/akgen``."""
    env = os.environ.get("AKGEN_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "akgen"


class UnsafeDirectoryError(OSError):
    """A directory whose contents akgen would run or trust can be written by someone else."""


def private_dir(path: Path, mode: int = 0o700) -> Path:
    """``path``, created with ``mode`` if missing, once it is known to be safe to build into.

    Why: akgen runs what it builds into its caches (the emulator's precompiled runtime, the
    NPUKernelBench binding) without rebuilding it. A directory another local user can write, or
    a symlink they planted (a shared /tmp, a group-writable cache), would let them choose that
    code. Safe means: a real directory (not a symlink), owned by this process's user, writable
    by nobody else. Raises :class:`UnsafeDirectoryError` naming the directory otherwise.
    """
    try:
        path.mkdir(mode=mode, parents=True, exist_ok=True)
    except OSError as exc:
        raise UnsafeDirectoryError(f"cannot create {path}: {exc}") from exc
    problem = unsafe_reason(path)
    if problem:
        raise UnsafeDirectoryError(f"{path} {problem}; akgen will not run what it finds there "
                                   "(remove it, or point the cache variable at a directory of your own)")
    return path


def unsafe_reason(path: Path) -> str | None:
    """Why ``path`` is not a directory this user alone can write (None when it is)."""
    try:
        st = path.lstat()
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if st.st_uid != os.geteuid():
        return f"belongs to uid {st.st_uid}, not to uid {os.geteuid()}"
    if st.st_mode & 0o002 or (st.st_mode & 0o020 and _group_has_others(st.st_gid)):
        return f"can be written by others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _group_has_others(gid: int) -> bool:
    """Whether a user other than this one is in group ``gid`` (as a member or by their primary
    group). A user's private group (umask 002 systems make their directories group-writable)
    gives no one else write access."""
    import grp
    import pwd

    me = os.geteuid()
    try:
        name = pwd.getpwuid(me).pw_name
        members = set(grp.getgrgid(gid).gr_mem) - {name}
        others = any(u.pw_gid == gid and u.pw_uid != me for u in pwd.getpwall())
    except (KeyError, OSError):
        return True  # unknown group or user: assume shared
    return bool(members) or others


def sha256_text(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def key_of(**parts: Any) -> str:
    """A stable digest of named key parts."""
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


class Cache:
    """One cache directory with ``results/``, ``baselines/`` and ``objects/`` below it.

    Its verdicts are returned and its objects (the driver, a task's fixed host) linked into
    programs as found, so the directory must be this user's alone (:func:`private_dir`): where
    another user can write, results are neither read nor written, and asking for an object
    raises :class:`UnsafeDirectoryError`.
    """

    def __init__(self, root: Path | None = None, *, enabled: bool = True) -> None:
        self.root = Path(root) if root is not None else default_dir()
        self.enabled = enabled
        self._unsafe: str | None | bool = False  # False: not checked yet

    def unsafe(self) -> str | None:
        """Why the directory may not be trusted (None when it may), checked once; created 0755
        if missing (a sandboxed compile reads objects as another user)."""
        if self._unsafe is False:
            try:
                private_dir(self.root, 0o755)
                self._unsafe = None
            except UnsafeDirectoryError as exc:
                self._unsafe = str(exc)
        return self._unsafe  # type: ignore[return-value]

    def _path(self, kind: str, key: str, suffix: str = ".json") -> Path:
        return self.root / kind / key[:2] / f"{key}{suffix}"

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        if not self.enabled or self.unsafe():
            return None
        try:
            data = json.loads(self._path(kind, key).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError, OSError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, kind: str, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` as strict JSON (non-finite numbers as the strings of ``contracts.json_safe``)."""
        if not self.enabled or self.unsafe():
            return
        self.put_bytes(kind, key, json.dumps(json_safe(value), sort_keys=True, allow_nan=False).encode(), ".json")

    def object_path(self, key: str, suffix: str) -> Path:
        """Where a compiled artefact for ``key`` lives (it may not exist yet)."""
        self._require_safe()
        return self._path("objects", key, suffix)

    def _require_safe(self) -> None:
        why = self.unsafe()
        if why:
            raise UnsafeDirectoryError(why)

    def put_bytes(self, kind: str, key: str, data: bytes, suffix: str) -> Path:
        self._require_safe()
        path = self._path(kind, key, suffix)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        return path
