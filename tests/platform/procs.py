"""Child processes of the platform tests: `manage.py` commands in their own session."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
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
