"""Child processes of the platform tests: `manage.py` commands in their own session."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Proc:
    """A `manage.py` child in its own session, so the whole tree can be stopped — or killed like
    a crashed host — at once."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self.handle = subprocess.Popen(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, start_new_session=True,
            stdout=log.open("ab"), stderr=subprocess.STDOUT,
        )

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.handle.pid, signal.SIGKILL)
        self.handle.wait(timeout=30)

    def stop(self) -> None:
        try:
            os.killpg(self.handle.pid, signal.SIGTERM)
            self.handle.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.kill()


def wait_until_serving(url: str, proc: Proc, *, timeout_s: float = 60.0) -> None:
    """Poll ``url`` until the server ``proc`` answers; fail with its log if it dies or never does."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).read()
            return
        except OSError:
            if time.monotonic() > deadline or proc.handle.poll() is not None:
                raise AssertionError(proc.log.read_text()[-3000:]) from None
            time.sleep(0.3)
