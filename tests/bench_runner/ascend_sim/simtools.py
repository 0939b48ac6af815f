"""Build-and-run helpers for the ascend_sim tests: compile kernels with g++, run them on numpy data.

Why: every test compiles a small AscendC kernel plus the generic CPU-debug host
(kernels/main_binary.cpp) and compares the outputs with numpy, so the build-and-run plumbing
lives here once. Executables are cached by the hash of their sources and flags for the session.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench_runner.ascend_sim import build

KERNELS = Path(__file__).parent / "kernels"
HOST = KERNELS / "main_binary.cpp"


@dataclass
class SimRun:
    """Outcome of one emulated launch."""

    returncode: int
    stdout: str
    stderr: str
    outputs: list[np.ndarray]
    report: dict = field(default_factory=dict)

    def codes(self, severity: str | None = None) -> list[str]:
        return [
            f["code"] for f in self.report.get("findings", []) if severity in (None, f["severity"])
        ]


class CompileError(AssertionError):
    pass


class Sim:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.pch = build.ensure_pch()

    def compile(
        self,
        kernel: str | Path,
        *,
        kernel_name: str = "k",
        args: int = 3,
        defines: dict[str, str] | None = None,
        host: Path | None = HOST,
        extra_include_dirs: tuple[Path, ...] | list[Path] = (),
    ) -> tuple[subprocess.CompletedProcess, Path]:
        """Compile without raising; returns the g++ result and the executable path."""
        src_text = kernel.read_text() if isinstance(kernel, Path) else kernel
        defs = {"KERNEL_NAME": kernel_name, "KERNEL_ARGS": str(args), **(defines or {})}
        flags = [f"-D{k}={v}" for k, v in sorted(defs.items())]
        key = hashlib.sha256((src_text + "\0" + " ".join(flags) + str(host)).encode()).hexdigest()[
            :16
        ]
        d = self.workdir / key
        d.mkdir(parents=True, exist_ok=True)
        src = d / "kernel.cpp"
        src.write_text(src_text)
        exe = d / "prog"
        sources = [src] + ([host] if host else [])
        argv = build.compile_command(sources, exe, extra_include_dirs=extra_include_dirs)
        argv = argv[:1] + flags + argv[1:]
        if exe.exists():
            return subprocess.CompletedProcess(argv, 0, "", ""), exe
        # C locale: plain ASCII quotes in diagnostics, whatever the machine's locale.
        env = {**os.environ, "LC_ALL": "C"}
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=300, check=False, env=env
        )
        return proc, exe

    def build(self, kernel: str | Path, **kw) -> Path:
        proc, exe = self.compile(kernel, **kw)
        if proc.returncode != 0:
            raise CompileError(proc.stderr[-6000:])
        return exe

    def run(
        self,
        exe: Path,
        block_dim: int,
        buffers: list[np.ndarray],
        *,
        env: dict[str, str] | None = None,
        timeout: float = 120,
    ) -> SimRun:
        """Run `exe` with the given GM buffers (inputs and zero-filled outputs alike)."""
        d = exe.parent / f"run{os.getpid()}_{len(list(exe.parent.glob('run*')))}"
        d.mkdir()
        argv = [str(exe), str(block_dim)]
        for i, b in enumerate(buffers):
            f = d / f"buf{i}.bin"
            np.ascontiguousarray(b).tofile(f)
            argv += [str(max(b.nbytes, 1)), str(f)]
        report = d / "report.json"
        run_env = {**os.environ, "ASCEND_SIM_REPORT": str(report), **(env or {})}
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, env=run_env, check=False
        )
        outputs = []
        for i, b in enumerate(buffers):
            f = d / f"buf{i}.bin.out"
            outputs.append(np.fromfile(f, dtype=b.dtype).reshape(b.shape) if f.exists() else b)
        rep = json.loads(report.read_text()) if report.exists() else {}
        return SimRun(proc.returncode, proc.stdout, proc.stderr, outputs, rep)
