"""Evaluate one submission: the library entry point behind ``akgen eval`` and the platform's workers.

Stages: check the input → static check → compile → for each case run every trial (the case's
listed seed plus fresh random seeds) → compare with the golden → read the modelled time →
compare with the baseline. The result is a :class:`bench_runner.contracts.EvaluationResult`
(``docs/evaluator.md`` documents every field; ``result.to_dict()`` is its strict-JSON form).
Submission failures are verdicts in the result; exceptions (``bench_runner.errors``) mean the
input was unusable or the machine failed. Thread-safe: no globals are mutated, no signals are used.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import os
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench_runner import cache as cache_mod
from bench_runner import (
    dtypes,
    launcher,
    reference,
    sandbox,
    static_check,
    tasks,
    toolchains,
    verify,
)
from bench_runner.contracts import (
    EVALUATOR_VERSION,
    SCHEMA_VERSION,
    SUSPICIOUS_SPEEDUP,
    VERDICTS,
    CaseResult,
    EvaluationResult,
    ResultFormatError,
    Verdict,
    bounded,
    check_source,
    json_safe,
)
from bench_runner.errors import (
    InfrastructureError,
    InputError,
    SubmissionError,
    ToolchainUnavailableError,
)
from bench_runner.launcher import Trial
from bench_runner.taxonomy import (
    Category,
    Diagnostic,
    findings_to_diagnostics,
    parse_emulator_stderr,
)
from bench_runner.toolchains import CaseRun, Sources, Toolchain

MIN_RANDOM_TRIALS = 3
#: Cases holding more elements than this (inputs and outputs) run their listed trial alone.
#: Random trials stop a kernel from carrying a case's outputs in its source; no source can carry
#: this many (contracts.MAX_TASK_SOURCE_BYTES is 1 MiB), while every trial of such a case costs
#: gigabytes of memory and seconds of drawing, emulating and checking (NPUKernelBench's largest
#: cases hold 2^29 elements; two trials of one needed 11 GB, two evaluations at once more than
#: a 24 GB machine has).
HUGE_CASE_ELEMENTS = 1 << 24
_USER_FILES = {"kernel.cpp": "kernel.cpp", "host.cpp": "host.cpp"}
#: Outcomes that may be the machine's fault: never cached (nor is any result that hit a time
#: limit, such as a compile_error for a compile timeout: see _cacheable).
_UNCACHED_VERDICTS = {Verdict.SYSTEM_ERROR, Verdict.TIMEOUT}


def _cacheable(result: EvaluationResult) -> bool:
    """Whether ``result`` is the submission's own outcome, the same on any machine at any load.

    A time limit (wall or CPU, at compile or run time) may have been hit because the host was
    busy, so a result with a timeout diagnostic is never stored (nor served, if an older
    evaluator stored it).
    """
    return result.verdict not in _UNCACHED_VERDICTS and not any(
        d.category is Category.TIMEOUT for d in result.diagnostics)


@dataclass(slots=True)
class _State:
    """What an evaluation accumulates on its way to a result."""

    stage: str = "prepare"
    verdict: Verdict | None = None
    reason: str | None = None
    compiled: bool = False
    compile_log: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cases: list[CaseResult] = field(default_factory=list)
    perf_cases: list[dict[str, Any]] = field(default_factory=list)
    #: Flags the model raised about the timing itself (``unmodelled_write``, ``below_traffic_bound``).
    model_flags: list[str] = field(default_factory=list)
    first_report: dict[str, Any] | None = None
    seeds: dict[str, list[int]] = field(default_factory=dict)
    stage_s: dict[str, float] = field(default_factory=dict)

    def fail(self, verdict: Verdict, reason: str) -> None:
        if self.verdict is None:
            self.verdict, self.reason = verdict, reason


def evaluate(
    task: str | tasks.Task,
    kernel_source: str,
    host_source: str | None = None,
    *,
    path: str | None = None,
    toolchain: str = "cpu-sim",
    soc: str | None = None,
    cache_dir: Path | str | None = None,
    use_cache: bool = True,
    seed: int | None = None,
    trials_per_case: int = MIN_RANDOM_TRIALS,
    static_checks: bool = True,
    baseline: bool = True,
    keep_dir: Path | None = None,
    on_stage: Callable[[str], None] | None = None,
) -> EvaluationResult:
    """Evaluate one kernel (and, on the host_device path, its host tiling) against a task.

    Returns the typed result; ``result.to_dict()`` is its strict-JSON form (the worker's
    payload, ``akgen eval --json``). ``seed`` replays an earlier evaluation's random trials (it
    is recorded in every result) and bypasses the cache; by default every evaluation draws
    fresh seeds from ``secrets``. ``on_stage`` is called with each stage's name as it starts
    (for progress display). Raises InputError (unknown task, path not offered; a bad source as
    :class:`bench_runner.contracts.SourceRejected`) and InfrastructureError.
    """
    started = time.monotonic()
    the_task = tasks.get_task(task) if isinstance(task, str) else task
    tc = toolchains.get(toolchain)
    path = _check_submission(the_task, kernel_source, host_source, path)
    avail = tc.availability()
    if not avail.ok:
        raise ToolchainUnavailableError(f"toolchain {toolchain!r} cannot run here: {avail.reason}")
    soc = soc or tc.default_soc()
    if avail.socs and soc not in avail.socs:
        raise InputError(f"SoC {soc!r} is not served by {toolchain}; expected one of {', '.join(avail.socs)}")
    if trials_per_case < MIN_RANDOM_TRIALS:
        raise InputError(f"trials_per_case must be at least {MIN_RANDOM_TRIALS}")
    identity = tc.identity(soc)
    root = Path(cache_dir) if cache_dir is not None else None
    store = cache_mod.Cache(root, enabled=use_cache and seed is None)
    # Baselines and compiled task objects do not depend on the submission: always reuse them.
    artefacts = cache_mod.Cache(root)
    kernel_sha = cache_mod.sha256_text(kernel_source)
    host_sha = cache_mod.sha256_text(host_source)
    key = cache_mod.key_of(kernel=kernel_sha, host=host_sha, task=the_task.version, path=path,
                           toolchain=identity, evaluator=EVALUATOR_VERSION, trials=trials_per_case,
                           static_checks=static_checks, baseline=baseline)
    hit = _cached_result(store, key)
    if hit is not None:
        return hit

    master = seed if seed is not None else secrets.randbits(63)
    state = _State()
    stage = _stage_timer(state, on_stage)
    host = host_source if path == "host_device" else _read(the_task.host_template)
    sources = Sources(kernel_source, host, host_is_fixed=path == "device_only")

    if static_checks:
        with stage("static_check"):
            found = static_check.check(kernel_source, "kernel.cpp")
            if path == "host_device" and host_source is not None:
                found += static_check.check(host_source, "host.cpp")
            if not found:
                found = _preprocessed_findings(tc, the_task, sources, kernel_source,
                                               host_source if path == "host_device" else None)
            if found:
                state.diagnostics += found
                state.fail(Verdict.SANDBOX_VIOLATION, found[0].message)

    perf: dict[str, Any] | None = None
    base: dict[str, Any] | None = None
    if state.verdict is None:
        try:
            with sandbox.job_dir(keep=keep_dir) as job:
                _compile_and_run(the_task, tc, job, sources, soc, master, trials_per_case, state, stage, artefacts)
        except OSError as exc:  # disk full, scratch directory gone: the machine's fault, worth a retry
            raise InfrastructureError(f"evaluation of {the_task.slug} failed on this host: {exc}") from exc
        if state.verdict is None:
            state.verdict, state.stage = Verdict.PASSED, "done"
            perf = _perf_summary(state)
            if baseline:
                with stage("baseline"):
                    base = baseline_perf(the_task, tc, soc, artefacts)
    speedup, flags = _speedup(perf, base)
    flags += [f for f in dict.fromkeys(state.model_flags) if f not in flags]
    result = _result(the_task, path, identity, state, perf, base, speedup, flags, kernel_sha, host_sha,
                     master, key, started)
    if _cacheable(result):
        store.put("results", key, result.to_dict())
    return result


def _cached_result(store: cache_mod.Cache, key: str) -> EvaluationResult | None:
    """The stored result for ``key``; one of another schema version, or unreadable, is a miss."""
    hit = store.get("results", key)
    if hit is None or hit.get("schema_version") != SCHEMA_VERSION:
        return None
    try:
        result = EvaluationResult.from_dict(hit)
    except ResultFormatError:
        return None
    return result.with_cache(True, key) if _cacheable(result) else None


def _check_submission(task: tasks.Task, kernel: str, host: str | None, path: str | None) -> str:
    if path is None and host is not None and "host_device" not in task.paths:
        raise SubmissionError(f"task {task.slug} does not offer the host_device path (it offers "
                              f"{', '.join(task.paths)}): submit only a kernel, without a host file")
    path = path or ("host_device" if host is not None and "host_device" in task.paths else task.paths[0])
    if path not in tasks.PATHS:
        raise SubmissionError(f"unknown path {path!r}; expected device_only or host_device")
    if path not in task.paths:
        raise SubmissionError(f"task {task.slug} does not offer the {path} path (it offers {', '.join(task.paths)})")
    if path == "device_only" and host is not None:
        raise SubmissionError(f"the device_only path of {task.slug} uses the task's fixed host; do not pass a "
                              "host file (or choose --path host_device)")
    check_source("kernel", kernel, required=True, limit=task.source_limit)
    check_source("host", host, required=path == "host_device", limit=task.source_limit)
    return path


def _read(p: Path | None) -> str | None:
    return p.read_text(encoding="utf-8") if p is not None else None


class _StageTimer:
    def __init__(self, state: _State, name: str, on_stage: Callable[[str], None] | None) -> None:
        self.state, self.name, self.on_stage = state, name, on_stage

    def __enter__(self) -> None:
        self.state.stage = self.name
        if self.on_stage is not None:
            self.on_stage(self.name)
        self.t0 = time.monotonic()

    def __exit__(self, *exc: object) -> None:
        self.state.stage_s[self.name] = self.state.stage_s.get(self.name, 0.0) + time.monotonic() - self.t0


def _stage_timer(state: _State, on_stage: Callable[[str], None] | None) -> Callable[[str], _StageTimer]:
    return lambda name: _StageTimer(state, name, on_stage)


# ---------------------------------------------------------------------------------------------
# Compile, run, verify


def _preprocessed_findings(tc: Toolchain, task: tasks.Task, sources: Sources, kernel: str,
                           host: str | None) -> list[Diagnostic]:
    """The static rules again on the preprocessor's tokens, where a file could hide some.

    Token pasting, a call or ``#include`` spelled through a macro, line splices: only a file
    with one of those (static_check.may_hide_tokens) pays for the extra preprocessor pass.
    """
    originals = {"kernel.cpp": kernel} | ({"host.cpp": host} if host is not None else {})
    macros = tc.macros()
    if not any(static_check.may_hide_tokens(text, macros) for text in originals.values()):
        return []
    pre = tc.preprocess(task, sources)
    if pre is None:
        return []
    return static_check.check_preprocessed(pre, originals)


def _compile_and_run(task: tasks.Task, tc: Toolchain, job: sandbox.JobDir, sources: Sources, soc: str,
                     master: int, n_random: int, state: _State, stage: Callable[[str], _StageTimer],
                     objects: cache_mod.Cache) -> None:
    with stage("compile"):
        built = tc.build(task, job, sources, soc=soc, objects=objects)
    state.compile_log = built.log
    if not built.ok:
        res = built.sandbox
        if res is not None and res.limit in ("wall", "cpu"):
            state.diagnostics.append(Diagnostic(Category.TIMEOUT, f"compilation exceeded the {res.limit} limit",
                                                source="sandbox"))
            state.fail(Verdict.COMPILE_ERROR, "compilation timed out")
        elif res is not None and res.limit == "seccomp":
            state.diagnostics.append(Diagnostic(Category.SANDBOX_VIOLATION, "the compiler was killed by the "
                                                "sandbox's system-call filter", source="sandbox"))
            state.fail(Verdict.SANDBOX_VIOLATION, "forbidden system call during compilation")
        else:
            diags = built.diagnostics or [Diagnostic(Category.OTHER, _first_line(built.log) or "compilation failed")]
            state.diagnostics += diags
            state.fail(Verdict.COMPILE_ERROR, diags[0].message)
        return
    state.compiled = True
    for ci, case in enumerate(task.cases):
        with stage("run"):
            trials = _make_trials(task, case, master, random_trials(task, case, n_random))
            state.seeds[case.name] = [t.seed for t in trials]
            run = tc.run_case(task, job, ci, case, trials, soc=soc)
        with stage("verify"):
            case_result = _judge_case(task, case, trials, run, state, submitted_host=not sources.host_is_fixed)
            _check_model(task, case, run, state, _min_cycles(tc, task, case, soc))
        state.cases.append(case_result)
        # A case that failed on its own (wrong values, a crash, a time limit) ends the evaluation,
        # unless the task is scored per case (Task.every_case): then every case gets its verdict.
        if state.verdict is not None and not (task.every_case and state.verdict in _PER_CASE_VERDICTS):
            return


#: Failures that are one case's own: a task judged per case goes on to its next case after them.
_PER_CASE_VERDICTS = frozenset({Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR, Verdict.TIMEOUT})


def trial_seed(master: int, case: str, index: int) -> int:
    """The seed of random trial ``index`` of ``case``, derived from the evaluation's master seed."""
    digest = hashlib.sha256(f"{master}:{case}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


#: Cases with at least this many input elements draw their trials' inputs, goldens and poison on
#: several threads (numpy releases the GIL for the bulk work) when cores are idle; each trial has
#: its own generator, so the values are the same as drawn one after another.
PARALLEL_TRIAL_ELEMENTS = 1 << 20
_MAX_TRIAL_THREADS = 4


def _trial_threads(n_trials: int) -> int:
    """Threads for drawing trials: one per idle core (this thread's included), at most 4.

    On a machine already busy (the platform's workers run one evaluation per core) more threads
    would only contend for the same cores and hold more memory at once.
    """
    cores = os.cpu_count() or 1
    try:
        busy = os.getloadavg()[0]
    except OSError:
        busy = 0.0
    return max(1, min(n_trials, _MAX_TRIAL_THREADS, cores, int(cores - busy + 1.5)))


def random_trials(task: tasks.Task, case: tasks.CaseSpec, asked: int) -> int:
    """How many random trials ``case`` runs besides its listed one (see HUGE_CASE_ELEMENTS)."""
    elements = _input_elements(task, case) + _elements(task.outputs, case)
    return 0 if elements > HUGE_CASE_ELEMENTS else asked


def _make_trials(task: tasks.Task, case: tasks.CaseSpec, master: int, n_random: int) -> list[Trial]:
    seeds = [(case.seed, True)] + [(trial_seed(master, case.name, i), False) for i in range(n_random)]

    def make(item: tuple[int, tuple[int, bool]], poison: bool = False) -> Trial:
        i, (s, listed) = item
        inputs = reference.make_inputs(task, case, s)
        golden = reference.golden(task, case, inputs)
        trial = Trial(i, s, listed, inputs, golden)
        if poison:  # else write_trial_files draws it
            launcher.prepare_poison(task, trial)
        return trial

    if _input_elements(task, case) < PARALLEL_TRIAL_ELEMENTS or (workers := _trial_threads(len(seeds))) < 2:
        return [make(item) for item in enumerate(seeds)]
    # map() hands results back in order and re-raises the first failure in that order, as the loop would.
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="akgen-trial") as pool:
        return list(pool.map(lambda item: make(item, poison=True), enumerate(seeds)))


def _input_elements(task: tasks.Task, case: tasks.CaseSpec) -> int:
    return _elements(task.inputs, case)


def _elements(specs: Sequence[tasks.TensorSpec], case: tasks.CaseSpec) -> int:
    total = 0
    for spec in specs:
        n = 1
        for d in case.shape_of(spec):
            n *= d
        total += n
    return total


def _judge_case(task: tasks.Task, case: tasks.CaseSpec, trials: list[Trial], run: CaseRun,
                state: _State, *, submitted_host: bool = False) -> CaseResult:
    res = run.sandbox
    findings = (run.final_report or {}).get("findings")
    if not isinstance(findings, list):
        findings = parse_emulator_stderr(res.stderr, _USER_FILES)
    sim_diags = findings_to_diagnostics([f for f in findings if isinstance(f, dict)], _USER_FILES)
    errors = [d for d in sim_diags if d.severity == "error"]
    warnings = [d for d in sim_diags if d.severity != "error"]
    out: dict[str, Any] = {"name": case.name, "passed": False, "trials": (), "exit_code": res.exit_code,
                           "signal": res.signal, "wall_s": round(res.wall_s, 4)}
    trial_results = []
    trial_diags: list[list[Diagnostic]] = []
    for t, got in zip(trials, run.stream.trials, strict=True):
        if not got.done:
            break
        judged, diags = _judge_trial(task, case, t, launcher.buffers_of(got, t), got.tiling)
        trial_results.append(judged)
        trial_diags.append(diags)
    out["trials"] = tuple(trial_results)
    process_ok = res.exit_code == 0 and res.limit is None and run.stream.status == "ok" and not errors
    if not process_ok or run.stream_error:
        _explain_process_failure(task, run, errors, state, submitted_host)
        state.diagnostics += warnings
        out["stdout_tail"] = res.stdout[-2000:]
        out["stderr_tail"] = res.stderr[-4000:]
        return CaseResult(**out)
    state.diagnostics += warnings
    if len(trial_results) < len(trials):
        state.diagnostics.append(Diagnostic(Category.CRASH, "the program exited before finishing every trial",
                                            source="harness"))
        state.fail(Verdict.RUNTIME_ERROR, "the program exited before finishing every trial")
        return CaseResult(**out)
    failed = [i for i, tr in enumerate(trial_results) if not tr["passed"]]
    if failed:
        tr = trial_results[failed[0]]
        state.diagnostics += trial_diags[failed[0]]
        state.fail(Verdict.WRONG_ANSWER, f"case {case.name}, seed {tr['seed']}: " + tr["summary"])
    else:
        out["passed"] = True
    listed = run.reports[0] if run.reports else None
    report = listed or run.final_report
    if report is not None:
        perf = _case_perf(report)
        perf["name"] = case.name
        out["perf"] = perf
        state.perf_cases.append(perf)
        if state.first_report is None:
            state.first_report = report
    errs = [tr["max_abs_err"] for tr in trial_results]
    out["max_abs_err"] = max(errs) if errs else None
    out["max_rel_err"] = max((tr["max_rel_err"] for tr in trial_results), default=None)
    out["mismatch_count"] = sum(tr["mismatch_count"] for tr in trial_results)
    return CaseResult(**out)


def _judge_trial(task: tasks.Task, case: tasks.CaseSpec, trial: Trial, buffers: dict[str, bytes | memoryview],
                 tiling: dict[str, Any] | None) -> tuple[dict[str, Any], list[Diagnostic]]:
    checks: list[dict[str, Any]] = []
    diags: list[Diagnostic] = []
    summaries = []
    aliases = {o.alias: o for o in task.outputs if o.alias is not None}
    # A task with its own precision check (reference.check) is judged by it; the tolerance
    # comparison still runs for its figures and to find what no check may let through: elements
    # the kernel never wrote, and NaN/Inf where the golden has none (a tolerance test such as
    # `abs_diff > tol` is false for NaN, so a check written that way would pass a NaN output).
    own_check = reference.has_check(task)
    decoded: dict[str, np.ndarray] = {}
    within: list[verify.OutputCheck] = []
    judged = [spec for spec in task.outputs if spec.judged]
    for spec in judged:
        source = spec.alias or spec.name
        want = trial.golden[spec.name]
        got = verify.decode(buffers.get(source, b""), spec.dtype, want.shape)
        if got is None:
            diag = Diagnostic(Category.CRASH, f"output {spec.name!r} came back with the wrong size", source="harness")
            checks.append({"name": spec.name, "passed": False})
            diags.append(diag)
            summaries.append(diag.message)
            continue
        decoded[spec.name] = got
        tol = task.tolerance_for(spec.dtype.name, case) if spec.dtype.is_float else None
        chk = verify.compare(spec.name, got, want, spec.dtype, tol, trial.poison.get(spec.name))
        entry: dict[str, Any] = chk.to_dict()
        if own_check and not chk.unwritten_count and not chk.nan_inf_count:
            entry["passed"] = True  # the check below decides
            within.append(chk)
        elif not chk.passed:
            at = inputs_at(task, trial, want.shape, chk.first_bad)
            where = f" (inputs there: {', '.join(f'{k}={v!r}' for k, v in at.items())})" if at else ""
            if at:
                entry["inputs_at"] = at
            diags.append(Diagnostic(_mismatch_category(chk), chk.describe() + where, source="verifier"))
            summaries.append(chk.describe() + where)
        checks.append(entry)
    if own_check and len(decoded) == len(judged):
        verdict = reference.check(task, case, trial.golden, decoded)
        if not verdict.passed:
            worst = [c for c in within if not c.passed]
            message = "the task's precision check failed" + (f": {verdict.message}" if verdict.message else "")
            if worst:
                message += f" ({worst[0].describe()})"
            category = _mismatch_category(worst[0]) if worst else Category.NUMERICAL_MISMATCH
            checks.append({"name": "(task check)", "passed": False, "message": verdict.message})
            diags.append(Diagnostic(category, message, source="verifier"))
            summaries.append(message)
    inputs_ok = True
    for spec in task.inputs:
        if spec.name in aliases:
            continue
        after = buffers.get(spec.name)
        if after is not None and not _same_bytes(after, trial.inputs[spec.name]):
            inputs_ok = False
            diag = Diagnostic(Category.INPUT_MUTATION, f"input {spec.name!r} was modified by the kernel "
                              "(only in-place tasks may write their inputs)", source="verifier")
            checks.append({"name": spec.name, "passed": False, "input": True})
            diags.append(diag)
            summaries.append(diag.message)
    passed = all(c.get("passed") for c in checks) and inputs_ok
    outs = [c for c in checks if "mismatch_count" in c]
    return {
        "seed": trial.seed, "listed": trial.listed, "passed": passed, "inputs_unchanged": inputs_ok,
        "checks": checks, "tiling": tiling, "summary": "; ".join(summaries),
        "max_abs_err": max((c["max_abs_err"] for c in outs), default=0.0),
        "max_rel_err": max((c["max_rel_err"] for c in outs), default=0.0),
        "mismatch_count": sum(c["mismatch_count"] for c in outs),
    }, diags


def _same_bytes(raw: bytes | memoryview, array: np.ndarray) -> bool:
    """Whether ``raw`` holds exactly ``array``'s bytes (compared in place, without a copy of either)."""
    data = np.ascontiguousarray(array)
    if len(raw) != data.nbytes:
        return False
    if not data.nbytes:
        return True
    width = next(w for w in (8, 4, 2, 1) if data.nbytes % w == 0)
    return bool(np.array_equal(np.frombuffer(raw, dtype=np.uint8).view(f"u{width}"),
                               data.reshape(-1).view(np.uint8).view(f"u{width}")))


def inputs_at(task: tasks.Task, trial: Trial, shape: tuple[int, ...], index: tuple[int, ...] | None) -> dict[str, float]:
    """The value of every input shaped like the output at the output's first failing ``index``
    (elementwise tasks: what the kernel was given there), for a diagnostic a person can act on."""
    if index is None:
        return {}
    out: dict[str, float] = {}
    for spec in task.inputs:
        array = trial.inputs.get(spec.name)
        if array is None or tuple(array.shape) != tuple(shape):
            continue
        cell = array[tuple(slice(i, i + 1) for i in index)].reshape(1)
        value = float(dtypes.to_float64(cell, spec.dtype)[0])
        out[spec.name] = value if math.isfinite(value) else str(value)
    return out


def _min_cycles(tc: Toolchain, task: tasks.Task, case: tasks.CaseSpec, soc: str) -> float | None:
    """The fewest cycles any kernel needs for this case: its judged output bytes at the SoC's
    HBM rate (an output the task does not judge, a scratch buffer, may be left unwritten).

    Computed here, from the task, so that no number the kernel's process reports can go below it.
    """
    rate = getattr(tc, "hbm_bytes_per_cycle", None)
    bpc = rate(soc) if callable(rate) else None
    if not bpc:
        return None
    view = reference.case_view(task, case)
    out_bytes = 0
    for spec in (o for o in task.outputs if o.judged):
        n = 1
        for d in view.shapes[spec.name]:
            n *= d
        out_bytes += n * spec.dtype.itemsize
    return out_bytes / bpc


def _check_model(task: tasks.Task, case: tasks.CaseSpec, run: CaseRun, state: _State,
                 min_cycles: float | None) -> None:
    """Flag a timing the model cannot vouch for: bytes written outside it, or a time below traffic."""
    reports = [r for r in (*run.reports, run.final_report) if isinstance(r, dict)]
    unaccounted = max((r.get("unaccounted_gm_bytes") for r in reports
                       if isinstance(r.get("unaccounted_gm_bytes"), int)), default=0)
    if unaccounted > 0 and "unmodelled_write" not in state.model_flags:
        state.model_flags.append("unmodelled_write")
        state.diagnostics.append(Diagnostic(
            Category.UNMODELLED_WRITE, f"case {case.name}: {unaccounted} byte(s) of global memory changed without a "
            "modelled write (DataCopy, SetValue, Fixpipe or a charged scalar store); the modelled time does not "
            "cover that work, so the result is not ranked", source="evaluator", severity="warning",
            code="UNMODELLED_WRITE"))
    perf = next((p for p in state.perf_cases if p.get("name") == case.name), None)
    cycles = perf.get("cycles") if perf else None
    if min_cycles and isinstance(cycles, int | float) and cycles < min_cycles * 0.999 \
            and "below_traffic_bound" not in state.model_flags:
        state.model_flags.append("below_traffic_bound")
        state.diagnostics.append(Diagnostic(
            Category.UNMODELLED_WRITE, f"case {case.name}: modelled {cycles} cycles, below the {min_cycles:.0f} "
            f"cycles its outputs need at HBM bandwidth; the result is not ranked", source="evaluator",
            severity="warning"))


def _mismatch_category(chk: verify.OutputCheck) -> Category:
    """What a failing output check is counted as: mostly unwritten, mostly NaN/Inf, or wrong values."""
    if chk.unwritten_count * 2 >= chk.mismatch_count:
        return Category.UNWRITTEN_OUTPUT
    # Among the written elements that fail, NaN/Inf at least as many as finite wrong values.
    wrong_values = chk.mismatch_count - chk.unwritten_count - chk.nan_inf_count
    if chk.nan_inf_count and chk.nan_inf_count >= wrong_values:
        return Category.NAN_INF
    return Category.NUMERICAL_MISMATCH


def _culprit(run: CaseRun, submitted_host: bool) -> str | None:
    """Whose code may have caused a failure the driver reported itself (issue #30): the
    submission's "host" or "kernel" code once the driver announced that it runs (the
    REC_SUBMITTED record it writes just before), else None — only our own code had run.

    Submitted code shares the driver's process, so once it has run it may have broken the driver
    (its memory, its descriptors); such a failure is the submission's ``runtime_error``, and
    ``system_error`` means our infrastructure alone. A task's fixed host (device_only) is ours.
    """
    if "host" in run.stream.submitted and submitted_host:
        return "host"
    return "kernel" if "kernel" in run.stream.submitted else None


def _explain_process_failure(task: tasks.Task, run: CaseRun, errors: list[Diagnostic], state: _State,
                             submitted_host: bool = False) -> None:
    res = run.sandbox
    stderr = res.stderr
    if res.limit == "seccomp":
        state.diagnostics.append(Diagnostic(Category.SANDBOX_VIOLATION, "killed by the sandbox's system-call filter "
                                            "(sockets, ptrace, mounts, namespaces … are forbidden)", source="sandbox"))
        state.fail(Verdict.SANDBOX_VIOLATION, "forbidden system call")
        return
    if res.limit in ("wall", "cpu"):
        what = "wall-clock" if res.limit == "wall" else "CPU-time"
        state.diagnostics += errors
        state.diagnostics.append(Diagnostic(Category.TIMEOUT, f"the run exceeded the {what} limit", source="sandbox"))
        state.fail(Verdict.TIMEOUT, f"{what} limit exceeded")
        return
    low = stderr.lower()
    out_of_memory = any(s in low for s in ("bad_alloc", "out of memory", "cannot allocate memory")) or any(
        "bad_alloc" in e.message for e in errors)
    if out_of_memory and all(e.category is Category.CRASH for e in errors):
        # An allocation failed at the address-space limit; the crash it caused is secondary.
        state.diagnostics.append(Diagnostic(Category.RESOURCE_LIMIT, "memory limit exceeded", source="sandbox"))
        state.diagnostics += errors
        state.fail(Verdict.RUNTIME_ERROR, "memory limit exceeded")
        return
    if errors:
        state.diagnostics += errors
        verdict = Verdict.TIMEOUT if errors[0].category is Category.TIMEOUT else Verdict.RUNTIME_ERROR
        state.fail(verdict, f"{errors[0].code}: {errors[0].message}")
        return
    if run.stream.status not in (None, "ok"):
        msg = f"{run.stream.status}: {run.stream.status_message}"
        culprit = "host" if run.stream.status == "tiling" else _culprit(run, submitted_host)
        if culprit is None:
            state.diagnostics.append(Diagnostic(Category.INFRASTRUCTURE, msg, source="harness"))
            state.fail(Verdict.SYSTEM_ERROR, msg)
            return
        if run.stream.status != "tiling":
            msg += f" (the driver failed after the submitted {culprit} code ran in its process)"
        cat = Category.TILING_HOST if culprit == "host" else Category.CRASH
        state.diagnostics.append(Diagnostic(cat, msg, "host.cpp" if culprit == "host" else None, source="harness"))
        state.fail(Verdict.RUNTIME_ERROR, msg)
        return
    if res.limit == "file_size":
        state.diagnostics.append(Diagnostic(Category.RESOURCE_LIMIT, "output limit exceeded (the program wrote too "
                                            "much to stdout/stderr or a file)", source="sandbox"))
        state.fail(Verdict.RUNTIME_ERROR, "output limit exceeded")
        return
    if "resource temporarily unavailable" in low:
        state.diagnostics.append(Diagnostic(Category.RESOURCE_LIMIT, "process or thread limit exceeded",
                                            source="sandbox"))
        state.fail(Verdict.RUNTIME_ERROR, "process or thread limit exceeded")
        return
    if run.stream_error:
        state.diagnostics.append(Diagnostic(Category.CRASH, f"result stream corrupted: {run.stream_error}",
                                            source="harness"))
        state.fail(Verdict.RUNTIME_ERROR, "the kernel overwrote the driver's results")
        return
    how = f"signal {res.signal}" if res.signal is not None else f"exit status {res.exit_code}"
    state.diagnostics.append(Diagnostic(Category.CRASH, f"the program ended with {how} "
                                        f"without an emulator finding: {_first_line(stderr) or 'no message'}",
                                        source="sandbox"))
    state.fail(Verdict.RUNTIME_ERROR, f"crashed ({how})")


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:500]
    return ""


# ---------------------------------------------------------------------------------------------
# Performance and baseline


def _case_perf(report: dict[str, Any]) -> dict[str, Any]:
    cores = report.get("cores") if isinstance(report.get("cores"), list) else []
    slowest = max((c for c in cores if isinstance(c, dict)), key=lambda c: c.get("cycles", 0), default=None)
    return {
        "cycles": report.get("total_cycles"),
        "est_us": report.get("est_us"),
        "block_dim": report.get("block_dim"),
        "pipes": (slowest or {}).get("pipes"),
    }


def _perf_summary(state: _State) -> dict[str, Any] | None:
    if not state.perf_cases or any(not isinstance(p.get("est_us"), int | float) for p in state.perf_cases):
        return None
    first = state.first_report or {}
    timeline = first.get("timeline") if isinstance(first.get("timeline"), list) else []
    return {
        "cycles": sum(p["cycles"] or 0 for p in state.perf_cases) or None,
        "est_us": sum(p["est_us"] or 0 for p in state.perf_cases),
        "pipes": state.perf_cases[0].get("pipes"),
        "per_case": state.perf_cases,
        "timeline": timeline[:2000],
    }


def baseline_perf(task: tasks.Task, tc: Toolchain, soc: str, store: cache_mod.Cache) -> dict[str, Any]:
    """The expert kernel's modelled time on this toolchain and SoC (computed once, then cached)."""
    identity = tc.identity(soc)
    key = cache_mod.key_of(task=task.version, toolchain=identity, evaluator=EVALUATOR_VERSION, kind="baseline")
    hit = store.get("baselines", key)
    if hit is not None:
        return {**hit, "cached": True}
    if tc.baseline_kind == "vendor":
        entry = json_safe(tc.vendor_baseline(task, soc))
        if "error" not in entry:
            store.put("baselines", key, entry)
        return {**entry, "cached": False}
    expert = task.expert_kernel.read_text(encoding="utf-8")
    host = _read(task.expert_host)
    state = _State()
    stage = _stage_timer(state, None)
    with sandbox.job_dir() as job:
        _compile_and_run(task, tc, job, Sources(expert, host, host_is_fixed=True), soc, master=0, n_random=0,
                         state=state, stage=stage, objects=store)
    perf = _perf_summary(state) if state.verdict is None else None
    if perf is None:
        detail = state.reason or "no performance report"
        return {"source": "expert", "error": f"the expert kernel did not pass: {detail}", "cached": False}
    entry = json_safe({"source": "expert", "cycles": perf["cycles"], "est_us": perf["est_us"],
                       "per_case": [{"name": p["name"], "cycles": p["cycles"], "est_us": p["est_us"]}
                                    for p in perf["per_case"]]})
    store.put("baselines", key, entry)
    return {**entry, "cached": False}


def _speedup(perf: dict[str, Any] | None, base: dict[str, Any] | None) -> tuple[float | None, list[str]]:
    """Geometric mean over cases of baseline time / candidate time; flags > SUSPICIOUS_SPEEDUP for review."""
    if not perf or not base or "per_case" not in base:
        return None, []
    by_name = {p["name"]: p for p in base["per_case"]}
    ratios = []
    for p in perf["per_case"]:
        b = by_name.get(p["name"]) or {}
        # Modelled cycles where both have them (cpu-sim), measured microseconds otherwise.
        unit = "cycles" if b.get("cycles") and p.get("cycles") else "est_us"
        if not _positive(b.get(unit)) or not _positive(p.get(unit)):
            return None, []
        ratios.append(b[unit] / p[unit])
    if not ratios:
        return None, []
    value = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    if not math.isfinite(value):
        return None, []
    flags = ["suspicious_speedup"] if value > SUSPICIOUS_SPEEDUP else []
    return round(value, 4), flags


def _positive(value: object) -> bool:
    """A usable time: a finite number above zero (not a bool, not "NaN")."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value > 0


# ---------------------------------------------------------------------------------------------
# Result object


def _result(task: tasks.Task, path: str, identity: dict[str, str], state: _State, perf: dict[str, Any] | None,
            base: dict[str, Any] | None, speedup: float | None, flags: list[str], kernel_sha: str | None,
            host_sha: str | None, master: int, key: str, started: float) -> EvaluationResult:
    be = sandbox.backend()
    verdict = state.verdict or Verdict.SYSTEM_ERROR
    return bounded(EvaluationResult(
        verdict=verdict,
        compiled=state.compiled,
        stage=state.stage if verdict is not Verdict.PASSED else "done",
        reason=state.reason,
        task={"slug": task.slug, "version": task.version, "level": task.level},
        path=path,
        toolchain=identity,
        compile_log=state.compile_log[:64 * 1024],
        # The errors that decided the verdict first, then warnings (stable order otherwise).
        diagnostics=tuple(sorted(state.diagnostics, key=lambda d: d.severity != "error")[:100]),
        cases=tuple(state.cases),
        perf=perf,
        baseline=base,
        speedup=speedup,
        flags=tuple(flags),
        source_sha256=kernel_sha,
        host_sha256=host_sha,
        seeds={"master": master, "trials": state.seeds},
        sandbox={"backend": be.name, "note": be.reason},
        cache={"hit": False, "key": key},
        stage_durations_s={k: round(v, 4) for k, v in state.stage_s.items()},
        duration_s=round(time.monotonic() - started, 4),
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    ))


def compile_only(task: str | tasks.Task, kernel_source: str, host_source: str | None = None, *,
                 path: str | None = None, toolchain: str = "cpu-sim", soc: str | None = None,
                 cache_dir: Path | str | None = None) -> dict[str, Any]:
    """Compile a submission without running it (``akgen suite validate`` checks templates so).

    Returns strict-JSON data: ``{compiled, compile_log, diagnostics, duration_s}``.
    """
    the_task = tasks.get_task(task) if isinstance(task, str) else task
    tc = toolchains.get(toolchain)
    path = _check_submission(the_task, kernel_source, host_source, path)
    soc = soc or tc.default_soc()
    host = host_source if path == "host_device" else _read(the_task.host_template)
    with sandbox.job_dir() as job:
        built = tc.build(the_task, job, Sources(kernel_source, host, host_is_fixed=path == "device_only"), soc=soc,
                         objects=cache_mod.Cache(Path(cache_dir) if cache_dir is not None else None))
    return json_safe({"compiled": built.ok, "compile_log": built.log,
                      "diagnostics": [d.to_dict() for d in built.diagnostics], "duration_s": round(built.duration_s, 4)})


# EVALUATOR_VERSION, SCHEMA_VERSION and VERDICTS are defined in bench_runner.contracts (re-exported here).
__all__ = ["EVALUATOR_VERSION", "SCHEMA_VERSION", "VERDICTS", "CaseResult", "EvaluationResult", "baseline_perf",
           "compile_only", "evaluate", "trial_seed"]
