"""Read models for the submission pages: what an Evaluation row and its result JSON mean to a reader.

The result is the evaluator's typed record (bench_runner.contracts.EvaluationResult), read back
from the row with ``from_dict`` (which also reads older schema versions); a row that holds no
readable record shows its stored verdict and says the details cannot be read, rather than
failing the page. The free-form parts of the record (perf, its timeline) are still read
defensively. Nothing here returns HTML except the highlighted
listings, whose text is escaped by :mod:`submissions.highlight`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from bench_runner.contracts import CaseResult, EvaluationResult, ResultFormatError, Verdict
from bench_runner.taxonomy import title_of
from submissions.highlight import highlight_lines, split_source
from submissions.models import REFUSED_PREFIX, EvalStatus, Evaluation, Submission
from submissions.waiting import is_overdue, waited, worker_lost


@dataclass(frozen=True, slots=True)
class VerdictInfo:
    code: str
    label: str
    tone: str  # ok | bad | warn | sys | pending
    meaning: str


#: How each of the contract's verdicts reads on a page (bench_runner.contracts.Verdict is the list).
VERDICT_LABELS: dict[str, VerdictInfo] = {v.code: v for v in [
    VerdictInfo(Verdict.PASSED, "Passed", "ok",
            "Every case matched the golden output within the task's tolerances."),
    VerdictInfo(Verdict.WRONG_ANSWER, "Wrong answer", "bad",
            "The kernel ran, but some outputs differ from the golden beyond tolerance."),
    VerdictInfo(Verdict.COMPILE_ERROR, "Compile error", "bad",
            "The kernel did not compile. The log below links each error to its line."),
    VerdictInfo(Verdict.RUNTIME_ERROR, "Runtime error", "bad",
            "The kernel crashed or broke a hardware rule while running."),
    VerdictInfo(Verdict.TIMEOUT, "Time limit exceeded", "warn",
            "The kernel ran past the wall-clock limit: a deadlock, or a loop that never ends?"),
    VerdictInfo(Verdict.SANDBOX_VIOLATION, "Sandbox violation", "bad",
            "The kernel tried something the sandbox forbids (files, network, processes)."),
    VerdictInfo(Verdict.SYSTEM_ERROR, "System error", "sys",
            "Something broke on our side, not in your kernel; it was retried and stays unjudged: it "
            "does not count against you, and its run shows it as unjudged."),
]}


def verdict_info(code: str | None) -> VerdictInfo | None:
    if not code:
        return None
    return VERDICT_LABELS.get(code) or VerdictInfo(code, code.replace("_", " ").capitalize(), "bad", "")


# --- small coercions ---------------------------------------------------------------------------


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _int(value: Any) -> int | None:
    number = _num(value)
    return int(number) if number is not None else None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


# --- progress ----------------------------------------------------------------------------------

STEPS = (("queued", "Queued"), ("compiling", "Compiling"), ("running", "Running"), ("verdict", "Verdict"))


def _step_of_stage(stage: str) -> str:
    stage = stage.lower()
    if stage.startswith(("prepar", "static", "compil", "build")):
        return "compiling"
    return "running"


@dataclass(frozen=True, slots=True)
class Step:
    key: str
    label: str
    state: str  # done | current | todo


def progress(evaluation: Evaluation) -> list[Step]:
    if evaluation.status == EvalStatus.QUEUED:
        current = "queued"
    elif evaluation.status == EvalStatus.RUNNING:
        current = _step_of_stage(evaluation.stage or "")
    else:
        current = None
    keys = [key for key, _ in STEPS]
    steps = []
    for key, label in STEPS:
        if current is None or keys.index(key) < keys.index(current):
            state = "done"
        elif key == current:
            state = "current"
        else:
            state = "todo"
        steps.append(Step(key, label, state))
    return steps


STAGE_LABELS = {
    "preparing": "Preparing sources", "prepare": "Preparing sources", "compile": "Compiling",
    "compiling": "Compiling", "run": "Running cases", "running": "Running cases",
    "verify": "Checking outputs", "verifying": "Checking outputs", "measure": "Measuring",
    "measuring": "Measuring", "compare": "Comparing with the baseline",
    "static_check": "Checking the source", "baseline": "Timing the expert kernel (baseline)",
}


def stage_label(stage: str) -> str:
    return STAGE_LABELS.get(stage.lower(), stage.replace("_", " ").capitalize()) if stage else "Starting"


# --- sources and where messages point --------------------------------------------------------

KERNEL, HOST = "kernel", "host"
ANCHOR_PREFIX = {KERNEL: "k-L", HOST: "h-L"}
_SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c", ".cu")


def source_of_file(file: str, *, has_host: bool) -> str | None:
    """Which submitted file a compiler/diagnostic file name refers to, or None (a system header,
    the emulator, the fixed host driver of the device-only path).

    A missing name means the kernel: constraint findings name kernel lines.
    """
    name = (file or "").replace("\\", "/").rsplit("/", 1)[-1].lower()
    if not name:
        return KERNEL
    if not name.endswith(_SOURCE_SUFFIXES):
        return None
    if name.startswith(("host", "main", "tiling")):
        return HOST if has_host else None
    if name.startswith(("harness", "driver", "golden")):
        return None
    return KERNEL


@dataclass(frozen=True, slots=True)
class Location:
    source: str
    line: int

    @property
    def anchor(self) -> str:
        return f"{ANCHOR_PREFIX[self.source]}{self.line}"


def _location(file: Any, line: Any, *, line_counts: dict[str, int]) -> Location | None:
    number = _int(line)
    if number is None or number < 1:
        return None
    source = source_of_file(_str(file), has_host=line_counts.get(HOST, 0) > 0)
    if source is None or number > line_counts.get(source, 0):
        return None
    return Location(source, number)



@dataclass(frozen=True, slots=True)
class Diagnostic:
    category: str
    message: str
    file: str
    line: int | None
    location: Location | None
    severity: str = "error"
    title: str = ""
    code: str = ""
    source: str = ""
    notes: tuple[str, ...] = ()


def diagnostics(record: EvaluationResult, *, line_counts: dict[str, int]) -> list[Diagnostic]:
    """The record's diagnostics, each linked to its line of the submitted source when it has one."""
    out = []
    for item in record.diagnostics:
        category = str(item.category)
        severity = item.severity if item.severity in ("error", "warning", "note") else "error"
        out.append(Diagnostic(
            category=category, message=item.message, file=item.file or "", line=item.line,
            location=_location(item.file, item.line, line_counts=line_counts), severity=severity,
            title=title_of(category), code=item.code or "",
            source=item.source or "", notes=tuple(n for n in item.notes if n)[:5],
        ))
    return out


# gcc/clang: "path/kernel.cpp:12:5: error: ..."; also "path:12: error" without a column.
_LOG_LOCATION = re.compile(
    r"^(?P<where>(?P<file>[^\s:][^:\n]*?):(?P<line>\d+)(?::(?P<col>\d+))?):\s*"
    r"(?P<kind>fatal error|error|warning|note)?"
)
MAX_LOG_LINES = 2000


@dataclass(frozen=True, slots=True)
class LogLine:
    number: int
    kind: str  # error | warning | note | ""
    where: str  # the "file:line:col" prefix, linked when location is set
    rest: str
    location: Location | None
    message: str = ""


@dataclass(frozen=True, slots=True)
class CompileLog:
    lines: list[LogLine]
    hidden: int
    errors: int
    warnings: int


def compile_log(text: Any, *, line_counts: dict[str, int]) -> CompileLog | None:
    text = _str(text)
    if not text.strip():
        return None
    raw = text.replace("\r\n", "\n").rstrip("\n").split("\n")
    lines, errors, warnings = [], 0, 0
    for number, line in enumerate(raw, start=1):
        match = _LOG_LOCATION.match(line)
        kind = ""
        if match:
            kind = (match.group("kind") or "").replace("fatal error", "error")
            errors += kind == "error"
            warnings += kind == "warning"
        elif re.search(r"\berror\b", line, re.IGNORECASE):
            kind = "error"
            errors += 1
        if number > MAX_LOG_LINES:
            continue
        if match:
            location = _location(match.group("file"), match.group("line"), line_counts=line_counts)
            message = line[match.end():].lstrip(": ").strip()
            lines.append(LogLine(number, kind, match.group("where"), line[len(match.group("where")):],
                                 location, message))
        else:
            lines.append(LogLine(number, kind, "", line, None))
    return CompileLog(lines, max(0, len(raw) - MAX_LOG_LINES), errors, warnings)


# --- listings ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListingLine:
    number: int
    html: str
    mark: str  # "error" | "warning" | ""
    notes: tuple[str, ...]
    anchor: str


@dataclass(frozen=True, slots=True)
class Listing:
    key: str
    title: str
    lines: list[ListingLine]


def listing(key: str, title: str, source: str, *, notes: dict[int, list[tuple[str, str]]] | None = None) -> Listing:
    """A highlighted listing with line anchors; ``notes`` maps a line to (kind, message) pairs."""
    notes = notes or {}
    rows = []
    for number, html in enumerate(highlight_lines(source or ""), start=1):
        here = notes.get(number, [])
        kinds = {kind for kind, _ in here}
        mark = "error" if "error" in kinds else ("warning" if here else "")
        rows.append(ListingLine(number, html, mark, tuple(msg for _, msg in here if msg),
                                f"{ANCHOR_PREFIX[key]}{number}"))
    return Listing(key, title, rows)


# --- cases and performance ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    passed: bool | None  # None: not run (an earlier case failed) or not recorded
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    mismatch_count: int | None = None
    detail: str = ""
    cycles: float | None = None
    trials: int | None = None
    output_tail: str = ""


def _failing_trial(case: CaseResult) -> str:
    """The first failing trial's one-line summary, with its seed (to replay it)."""
    for trial in case.trials:
        if trial.get("passed") is False and _str(trial.get("summary")):
            listed = " (the case's listed seed)" if trial.get("listed") else ""
            return f"seed {_str(trial.get('seed'))}{listed}: {_str(trial.get('summary'))}"[:500]
    return ""


#: Verdicts whose trials are worth replaying on one's own machine.
REPLAYABLE = ("wrong_answer", "runtime_error", "timeout")


def replay_command(record: EvaluationResult, submission: Submission) -> str:
    """The command that reruns this evaluation's trials (same master seed, no cache), so the
    failing case, index and values can be reproduced and debugged locally."""
    master = (record.seeds or {}).get("master")
    if str(record.verdict) not in REPLAYABLE or master is None:
        return ""
    files = "--kernel kernel.cpp" + (" --host host.cpp --path host_device" if submission.path == "host_device" else "")
    return f"akgen eval --task {submission.task.slug} {files} --seed {master}"


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def cases(record: EvaluationResult, *, planned: list[str] | None = None) -> list[Case]:
    """The judged cases, then the task's ``planned`` cases that never ran (judging stops at the
    first failing case)."""
    out = []
    for index, item in enumerate(record.cases, start=1):
        tail = (item.stderr_tail or "").strip() or (item.stdout_tail or "").strip()
        out.append(Case(
            name=item.name or f"case {index}",
            passed=item.passed,
            max_abs_err=_finite(item.max_abs_err),
            max_rel_err=_finite(item.max_rel_err),
            mismatch_count=item.mismatch_count,
            detail=_failing_trial(item),
            cycles=_num((item.perf or {}).get("cycles")),
            trials=len(item.trials) or None,
            output_tail=tail[-4000:] if not item.passed else "",
        ))
    if out:
        seen = {case.name for case in out}
        out += [Case(name=name, passed=None) for name in planned or [] if name not in seen]
    return out


PIPE_ORDER = ("MTE2", "MTE1", "V", "M", "FIX", "MTE3", "S")
MAX_TIMELINE_EVENTS = 20000


@dataclass(frozen=True, slots=True)
class PipeBusy:
    pipe: str
    busy: float
    share: float  # of the kernel's cycles, 0..1

    @property
    def percent(self) -> int:
        return round(self.share * 100)


@dataclass(slots=True)
class Perf:
    cycles: float | None = None
    est_us: float | None = None
    pipes: list[PipeBusy] = field(default_factory=list)
    cores: int | None = None
    timeline: dict | None = None
    timeline_total: int = 0
    #: The case the pipe figures and the timeline describe, when the evaluator says which.
    detail_case: str = ""
    cases: int = 0

    @property
    def recorded(self) -> bool:
        return self.cycles is not None or bool(self.pipes) or self.timeline is not None


def _pipe_sort_key(name: str):
    return (PIPE_ORDER.index(name) if name in PIPE_ORDER else len(PIPE_ORDER), name)


def _timeline_events(raw: Any) -> list[dict]:
    events = []
    for item in _list(raw):
        item = _dict(item)
        start, end = _num(item.get("start")), _num(item.get("end"))
        if start is None or end is None or end < start:
            continue
        events.append({
            "core": _int(item.get("core")) or 0,
            "pipe": _str(item.get("pipe")) or "?",
            "op": _str(item.get("op"))[:80],
            "start": start,
            "end": end,
            "line": line if (line := _int(item.get("line"))) and line > 0 else None,
        })
    return events


def _busy_from_events(events: list[dict]) -> dict[str, float]:
    """Busy cycles per pipe on the slowest core: the union of its events' intervals."""
    if not events:
        return {}
    ends: dict[int, float] = {}
    for event in events:
        ends[event["core"]] = max(ends.get(event["core"], 0.0), event["end"])
    slowest = max(ends, key=lambda core: ends[core])
    spans: dict[str, list[tuple[float, float]]] = {}
    for event in events:
        if event["core"] == slowest:
            spans.setdefault(event["pipe"], []).append((event["start"], event["end"]))
    busy = {}
    for pipe, intervals in spans.items():
        total, cur_start, cur_end = 0.0, None, None
        for start, end in sorted(intervals):
            if cur_end is None or start > cur_end:
                if cur_end is not None:
                    total += cur_end - cur_start
                cur_start, cur_end = start, end
            else:
                cur_end = max(cur_end, end)
        total += cur_end - cur_start
        busy[pipe] = total
    return busy


def _busy_from_perf(perf: dict) -> dict[str, float]:
    for key in ("pipes", "pipe_busy", "per_pipe", "busy", "pipe_cycles"):
        value = perf.get(key)
        if isinstance(value, dict) and value:
            busy = {}
            for pipe, entry in value.items():
                if isinstance(entry, dict):
                    entry = entry.get("busy", entry.get("busy_cycles", entry.get("cycles")))
                number = _num(entry)
                if number is not None:
                    busy[str(pipe)] = number
            if busy:
                return busy
    return {}


def perf(raw_perf: dict | None) -> Perf:
    """Cycles (summed over cases by the evaluator), and the pipes and timeline of the first case."""
    raw = _dict(raw_perf)
    out = Perf(cycles=_num(raw.get("cycles")), est_us=_num(raw.get("est_us")))
    per_case = [_dict(c) for c in _list(raw.get("per_case"))]
    out.cases = len(per_case)
    events = _timeline_events(raw.get("timeline"))
    busy = _busy_from_perf(raw) or _busy_from_events(events)
    total = out.cycles or (max((e["end"] for e in events), default=0.0) or None)
    if per_case and _num(per_case[0].get("cycles")):
        total = _num(per_case[0].get("cycles"))
        out.detail_case = _str(per_case[0].get("name"))
    if busy:
        denominator = total or max(busy.values()) or 1.0
        out.pipes = [PipeBusy(pipe, cycles, min(1.0, cycles / denominator))
                     for pipe, cycles in sorted(busy.items(), key=lambda kv: _pipe_sort_key(kv[0])) if cycles > 0]
    if events:
        out.cores = len({e["core"] for e in events})
        out.timeline_total = len(events)
        out.timeline = {"events": events[:MAX_TIMELINE_EVENTS], "cycles": total,
                        "pipes": sorted({e["pipe"] for e in events}, key=_pipe_sort_key),
                        "anchor": ANCHOR_PREFIX[KERNEL]}
    cores = _list(raw.get("cores"))
    if out.cores is None and cores:
        out.cores = len(cores)
    return out


def baseline_cycles(raw: dict | None) -> float | None:
    if isinstance(raw, dict):
        return _num(raw.get("cycles") if "cycles" in raw else _dict(raw.get("perf")).get("cycles"))
    return _num(raw)


def baseline_problem(raw: dict | None) -> str:
    return _str(raw.get("error")) if isinstance(raw, dict) else ""


# --- the whole evaluation ------------------------------------------------------------------------


@dataclass
class EvaluationView:
    """Everything the result partial renders for one evaluation."""

    evaluation: Evaluation
    verdict: Verdict | None
    steps: list[Step]
    stage: str
    finished: bool
    queue_position: int | None = None
    #: Waiting longer than submissions.waiting says is normal (the page says so, as /healthz does).
    overdue: bool = False
    waited_s: float | None = None
    worker_lost: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    compile_log: CompileLog | None = None
    cases: list[Case] = field(default_factory=list)
    perf: Perf = field(default_factory=Perf)
    speedup: float | None = None
    baseline_cycles: float | None = None
    toolchain: dict = field(default_factory=dict)
    duration_s: float | None = None
    cached: bool = False
    reason: str = ""
    #: ``akgen eval … --seed`` that reruns exactly these trials locally ("" when not replayable).
    replay: str = ""
    flags: list[str] = field(default_factory=list)
    baseline_problem: str = ""
    notes: dict[str, dict[int, list[tuple[str, str]]]] = field(default_factory=dict)

    @property
    def cases_passed(self) -> int:
        return sum(1 for case in self.cases if case.passed)

    @property
    def has_details(self) -> bool:
        return bool(self.diagnostics or self.compile_log or self.cases or self.perf.recorded)


def planned_cases(submission: Submission) -> list[str]:
    """Case names of the task version the submission was judged on."""
    spec = _dict(submission.task_version.spec) if submission.task_version_id else {}
    return [_str(_dict(c).get("name")) for c in _list(spec.get("cases")) if _dict(c).get("name")]


def line_counts(submission: Submission) -> dict[str, int]:
    return {KERNEL: len(split_source(submission.kernel_source)), HOST: len(split_source(submission.host_source))}


def stored_record(evaluation: Evaluation) -> EvaluationResult | None:
    """The evaluator's record as stored, or None when the row holds none this version can read
    (hand-written rows, a result from a future schema)."""
    if not isinstance(evaluation.result, dict):
        return None
    try:
        return EvaluationResult.from_dict(evaluation.result)
    except ResultFormatError:
        return None


def refusal(error: str) -> str:
    """The part of an unjudged evaluation's error anyone who may see the submission reads: the
    evaluator's refusal of the input (its first line). Any other error text is infrastructure
    detail for staff (submissions.selectors.Shown)."""
    return error.splitlines()[0][:500] if error.startswith(REFUSED_PREFIX) else ""


UNREADABLE = ("The stored result of this evaluation is not in a form this version of the site can read; "
              "its verdict above is the one recorded.")


def evaluation_view(evaluation: Evaluation, submission: Submission, *, queue_position: int | None = None) -> EvaluationView:
    finished = evaluation.is_finished
    verdict_code = evaluation.verdict
    if evaluation.status == EvalStatus.FAILED and not verdict_code:
        verdict_code = Verdict.SYSTEM_ERROR
    view = EvaluationView(
        evaluation=evaluation,
        verdict=verdict_info(verdict_code) if finished else None,
        steps=progress(evaluation),
        stage=stage_label(evaluation.stage or ""),
        finished=finished,
        queue_position=queue_position,
    )
    if not finished:
        wait = waited(evaluation)
        view.waited_s = wait.total_seconds() if wait is not None else None
        view.overdue = is_overdue(evaluation)
        view.worker_lost = worker_lost(evaluation)
        return view
    if evaluation.status == EvalStatus.FAILED:  # unjudged; the submitter reads why only if it is theirs
        view.reason = refusal(evaluation.error)
        return view
    record = stored_record(evaluation)
    if record is None:
        view.reason = UNREADABLE
        view.speedup = evaluation.speedup
        return view
    counts = line_counts(submission)
    view.diagnostics = diagnostics(record, line_counts=counts)
    view.compile_log = compile_log(record.compile_log, line_counts=counts)
    view.cases = cases(record, planned=planned_cases(submission))
    view.perf = perf(record.perf)
    view.speedup = _finite(record.speedup)
    view.baseline_cycles = baseline_cycles(record.baseline)
    if view.perf.cycles is None and evaluation.cycles is not None:
        view.perf.cycles = float(evaluation.cycles)
    view.toolchain = {k: _str(v) for k, v in record.toolchain.items() if k in ("name", "version", "soc")}
    view.duration_s = record.duration_s or None
    view.cached = bool(record.cache.get("hit"))
    view.reason = record.reason or ""
    view.replay = replay_command(record, submission)
    view.flags = [f.replace("_", " ") for f in record.flags if f]
    view.baseline_problem = baseline_problem(record.baseline)
    notes: dict[str, dict[int, list[tuple[str, str]]]] = {KERNEL: {}, HOST: {}}
    said: dict[tuple[str, int], list[str]] = {}

    def note(location: Location, kind: str, message: str, text: str) -> None:
        before = said.setdefault((location.source, location.line), [])
        if any(message in m or m in message for m in before if m) and message:
            return
        before.append(message)
        notes[location.source].setdefault(location.line, []).append((kind, text))

    for diag in view.diagnostics:
        if diag.location:
            note(diag.location, "warning" if diag.severity != "error" else "error", diag.message,
                 f"{diag.title}: {diag.message}" if diag.message else diag.title)
    if view.compile_log:
        for line in view.compile_log.lines:
            if line.location and line.kind in ("error", "warning"):
                note(line.location, line.kind, line.message, line.message)
    view.notes = notes
    return view


def source_listings(submission: Submission, notes: dict | None = None) -> list[Listing]:
    notes = notes or {}
    out = [listing(KERNEL, "kernel.cpp", submission.kernel_source, notes=notes.get(KERNEL))]
    if submission.host_source:
        out.append(listing(HOST, "host.cpp", submission.host_source, notes=notes.get(HOST)))
    return out


def submitter_label(submission: Submission) -> str:
    if submission.run_id is not None:
        run = submission.run
        sample = f" #{submission.sample_index}" if submission.sample_index is not None else ""
        return f"{run.model.name} / {run.name}{sample}"
    if submission.author_id is not None:
        return submission.author.get_username()
    return "anonymous"
