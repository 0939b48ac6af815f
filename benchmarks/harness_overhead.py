"""The Python side of one evaluation on a large elementwise case (issue #23).

Copies a suite task (default ``add_unaligned_tail_fp16``: z = x + y on half) into a temporary
folder, gives it one case of ``--n`` elements (16,777,216 by default), evaluates its expert kernel
on cpu-sim (the listed seed plus ``--trials`` random trials, a fixed master seed, no cache, no
baseline) and prints the wall time of each stage:

  inputs + goldens   evaluate._make_trials: every trial's inputs and golden (and, when a large
                     case's trials are drawn on threads, their poison); below it the sums of
                     reference.make_inputs and reference.golden over the trials (on threads
                     these sums exceed the wall time)
  trial files        launcher.write_trial_files (inputs and poisoned outputs on disk)
  compile            evaluate()'s "compile" stage
  emulation          the sandboxed run of the case (sandbox.run during the "run" stage)
  reading outputs    the rest of the toolchain's run_case: reading and parsing the result
                     stream and the reports, removing the trial files
  verification       evaluate._judge_case and _check_model (verify.compare's share below it)
  total              the whole evaluate() call

and the Python overhead (total - compile - emulation) against the emulation time. On a busy
machine wall times swing with the load, so it also prints CPU seconds, which swing less: this
process's (all its threads: the Python side) per stage, and the sandboxed run's as the sandbox
reports it (under bwrap only bwrap's own; AKGEN_SANDBOX=rlimit shows the emulator's). Last, the
memory high-water marks of this process (RUSAGE_SELF) and of its waited-for children
(RUSAGE_CHILDREN: the compiler and the sandboxed run). It removes its temporary files.

Read the second and later runs for the steady state of a worker process: the first run also
pays for memory this process touches for the first time. On a virtual machine whose idle memory
goes back to the host, that is expensive (measured on the 2-core VM of issue #23: 2.85 s to
touch 1 GiB of fresh memory, 0.15 s once touched), and a 16M-element case touches about 1 GiB.

Usage: .venv/bin/python benchmarks/harness_overhead.py [--task SLUG] [--n N] [--trials K]
       [--seed S] [--repeat R] [--serial] [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import resource
import shutil
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_runner import evaluate as evaluate_mod  # noqa: E402
from bench_runner import launcher, reference, sandbox, tasks, verify  # noqa: E402
from bench_runner.toolchains import cpu_sim  # noqa: E402

SUITE = ROOT / "bench_runner" / "suites" / "npukb"


def large_task(slug: str, folder: Path, n: int) -> tasks.Task:
    """A copy of suite task ``slug`` in ``folder`` with one case of ``n`` elements.

    The task must have one dim (elementwise). Its cases are replaced by one; its limits are
    raised so the emulation of a big case is not cut short on a busy machine.
    """
    src = SUITE / slug
    dst = folder / slug
    shutil.copytree(src, dst)
    text = (src / "task.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    dims = {d for c in data["cases"] for d in c.get("dims", {})}
    if len(dims) != 1:
        raise SystemExit(f"{slug}: expected an elementwise task with one dim, got dims {sorted(dims)}")
    dim = dims.pop()
    # Drop every [[cases]] table and any [limits] table (the next table header ends each), and
    # the static variant (it names a case that is gone).
    kept, skipping = [], False
    for line in text.splitlines():
        header = re.match(r"^\s*\[\[?([A-Za-z_.]+)\]\]?\s*$", line)
        if header:
            skipping = header.group(1) in ("cases", "limits")
        if skipping or re.match(r"^\s*static_case\s*=", line):
            continue
        kept.append(line)
    body = "\n".join(kept).rstrip() + "\n"
    case = (f'\n[limits]\nrun_wall_s = 600\nrun_cpu_s = 1200\nrun_memory_mb = 16384\n\n'
            f'[[cases]]\nname = "n{n}"\ndims = {{ {dim} = {n} }}\nseed = 20260423\n')
    # A table header ends the one before it, so the new tables may follow [extra].
    (dst / "task.toml").write_text(body + case, encoding="utf-8")
    return tasks.load_task(dst)


class Timers:
    """Wall and CPU seconds spent in wrapped functions, by label, and which evaluate() stage runs.

    CPU is this process's (all threads: ``time.process_time``), which only the evaluation uses.
    """

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.child_cpu = 0.0
        self.stage = ""

    def on_stage(self, name: str) -> None:
        self.stage = name

    def wrap(self, label: str, fn: Callable[..., Any], *, stage: str | None = None) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if stage is not None and self.stage != stage:
                return fn(*args, **kwargs)
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                out = fn(*args, **kwargs)
            finally:
                self.wall[label] = self.wall.get(label, 0.0) + time.perf_counter() - t0
                self.cpu[label] = self.cpu.get(label, 0.0) + time.process_time() - c0
            if label == "emulation":
                self.child_cpu += out.cpu_s
            return out
        return timed


@contextlib.contextmanager
def instrumented(timers: Timers) -> Iterator[None]:
    """Time the functions an evaluation's data path goes through (restored afterwards)."""
    patches = [
        (evaluate_mod, "_make_trials", "make_trials", None),
        (reference, "make_inputs", "inputs", None),
        (reference, "golden", "golden", None),
        (launcher, "write_trial_files", "trial_files", None),
        (cpu_sim.CpuSim, "run_case", "run_case", None),
        (sandbox, "run", "emulation", "run"),
        (evaluate_mod, "_judge_case", "verify", None),
        (evaluate_mod, "_check_model", "verify", None),
        (verify, "compare", "compare", None),
    ]
    saved = [(owner, name, owner.__dict__[name]) for owner, name, _, _ in patches]
    try:
        for owner, name, label, stage in patches:
            setattr(owner, name, timers.wrap(label, getattr(owner, name), stage=stage))
        yield
    finally:
        for owner, name, fn in saved:
            setattr(owner, name, fn)


STAGES = ("inputs + goldens", "  make_inputs (sum)", "  golden (sum)", "trial files", "compile", "emulation",
          "reading outputs", "verification", "  of which compare", "static check", "total")


def measure(task: tasks.Task, cache: Path, trials: int, seed: int) -> dict[str, Any]:
    kernel = task.expert_kernel.read_text(encoding="utf-8")
    timers = Timers()
    with instrumented(timers):
        t0, cpu0 = time.perf_counter(), time.process_time()
        result = evaluate_mod.evaluate(task, kernel, cache_dir=cache, use_cache=False, seed=seed,
                                       trials_per_case=trials, baseline=False, on_stage=timers.on_stage)
        total, total_cpu = time.perf_counter() - t0, time.process_time() - cpu0
    if not result.passed:
        raise SystemExit(f"the expert did not pass: {result.verdict}: {result.reason}")
    st = dict(result.stage_durations_s)
    wall, cpu = timers.wall, timers.cpu

    def rest(d: dict[str, float]) -> float:  # run_case but its trial files and the sandboxed run
        return max(0.0, d.get("run_case", 0.0) - d.get("trial_files", 0.0) - d.get("emulation", 0.0))

    walls = {"inputs + goldens": wall.get("make_trials", 0.0), "  make_inputs (sum)": wall.get("inputs", 0.0),
             "  golden (sum)": wall.get("golden", 0.0), "trial files": wall.get("trial_files", 0.0),
             "compile": st.get("compile", 0.0), "emulation": wall.get("emulation", 0.0),
             "reading outputs": rest(wall), "verification": wall.get("verify", 0.0),
             "  of which compare": wall.get("compare", 0.0), "static check": st.get("static_check", 0.0),
             "total": total}
    cpus = {"inputs + goldens": cpu.get("make_trials", 0.0), "trial files": cpu.get("trial_files", 0.0),
            "emulation": cpu.get("emulation", 0.0), "reading outputs": rest(cpu),
            "verification": cpu.get("verify", 0.0), "  of which compare": cpu.get("compare", 0.0),
            "total": total_cpu}
    overhead = total - walls["compile"] - walls["emulation"]
    return {"wall_s": walls, "cpu_s": cpus, "python_overhead_s": overhead,
            "overhead_vs_emulation": overhead / walls["emulation"] if walls["emulation"] else None,
            "emulation_child_cpu_s": timers.child_cpu,
            "trials": len(result.seeds["trials"][task.cases[0].name])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--task", default="add_unaligned_tail_fp16", help="an elementwise suite task (one dim)")
    ap.add_argument("--n", type=int, default=16 * 1024 * 1024, help="elements of the one case")
    ap.add_argument("--trials", type=int, default=evaluate_mod.MIN_RANDOM_TRIALS, help="random trials per case")
    ap.add_argument("--seed", type=int, default=1, help="master seed (fixed, so runs are comparable)")
    ap.add_argument("--repeat", type=int, default=1, help="evaluations to run (each row is one)")
    ap.add_argument("--serial", action="store_true", help="draw the trials one after another (no threads)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    if args.serial:
        evaluate_mod.PARALLEL_TRIAL_ELEMENTS = 1 << 62

    runs = []
    with tempfile.TemporaryDirectory(prefix="akgen-overhead-") as tmp:
        task = large_task(args.task, Path(tmp), args.n)
        for _ in range(args.repeat):
            runs.append(measure(task, Path(tmp) / "cache", args.trials, args.seed))
    self_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    if args.serial or not hasattr(evaluate_mod, "PARALLEL_TRIAL_ELEMENTS"):
        how = "drawn serially"
    else:
        threads = evaluate_mod._trial_threads(runs[0]["trials"])
        how = f"drawn on {threads} thread{'s' if threads > 1 else ''} at the present load"
    print(f"{args.task}, one case of {args.n:,} elements, {runs[0]['trials']} trials ({how}), master seed {args.seed}")
    print(f"{'stage':<22}" + "".join(f"{'run ' + str(i + 1) + ' wall':>13}{'cpu':>8}" for i in range(len(runs))))
    for name in STAGES:
        cells = []
        for r in runs:
            c = r["cpu_s"].get(name)
            cells.append(f"{r['wall_s'][name]:>12.3f}s" + (f"{c:>7.3f}s" if c is not None else f"{'':>8}"))
        print(f"{name:<22}" + "".join(cells))
    for r in runs:
        ratio = r["overhead_vs_emulation"]
        share = f"{ratio:.2f}x the emulation's wall time" if ratio is not None else "no emulation time measured"
        child = r["emulation_child_cpu_s"]
        print(f"python overhead {r['python_overhead_s']:.3f} s = {share}; this process's CPU {r['cpu_s']['total']:.3f} s"
              f"; the sandboxed run's CPU {child:.3f} s" + (" (bwrap's own only)" if sandbox.backend().name == "bwrap"
                                                              else ""))
    # A child forked from this process starts with its pages, so the children's figure is at least
    # this process's size at its last fork (the sandboxed run's own is not visible through bwrap).
    print(f"memory high-water mark: this process {self_mb:.0f} MB, children {children_mb:.0f} MB")
    if args.json:
        args.json.write_text(json.dumps({"task": args.task, "n": args.n, "runs": runs,
                                         "maxrss_self_mb": round(self_mb, 1),
                                         "maxrss_children_mb": round(children_mb, 1)}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
